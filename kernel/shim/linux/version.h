/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: the tree's version.  kernel/CMakeLists.txt passes
 * LINUX_VERSION_CODE from the tree's Makefile; the shim's headers test it
 * where main.c's surroundings changed between versions (a prototype, a
 * flag's name), and only there.
 */
#ifndef _DPMSHIM_LINUX_VERSION_H
#define _DPMSHIM_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

#ifndef LINUX_VERSION_CODE
#error "the build passes LINUX_VERSION_CODE (kernel/CMakeLists.txt)"
#endif

#endif
