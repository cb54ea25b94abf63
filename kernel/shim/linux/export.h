/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dpmfuzz kernel shim: exports.  There are no modules here; an export is
 * a declaration that checks the symbol exists, nothing more.
 */
#ifndef _DPMSHIM_LINUX_EXPORT_H
#define _DPMSHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)		extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)		extern __typeof__(sym) sym

#endif
