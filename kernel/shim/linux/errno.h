/* SPDX-License-Identifier: GPL-2.0-only */
/* dpmfuzz kernel shim: the error numbers main.c and the runtime return. */
#ifndef _DPMSHIM_LINUX_ERRNO_H
#define _DPMSHIM_LINUX_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EIO		5
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSYS		38
#define ETIMEDOUT	110

#endif
