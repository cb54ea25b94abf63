// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk() and dev_*() to dpmfuzz's run log.
 *
 * The kernel's format strings carry kernel-only conversions (%ps, %pS,
 * %Ld, a KERN_* level prefix), so they never reach the C library: this
 * file formats them itself.  It knows the C conversions (flags, width,
 * precision, hh/h/l/ll/L/z/t/j lengths; d i u x X o c s p %), prints
 * %pS/%ps/%pF/%pf/%pB as the symbol of the runtime's callbacks (or the
 * address), any other %p<letter> as the address, and copies a
 * conversion it does not know as it stands.  Nothing is formatted unless
 * the host keeps a log (dpmk_log_on).
 */
#include <stdarg.h>

#include "rt.h"

int dpmk_log_on;

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void puts_n(struct out *o, const char *s, int n)
{
	for (int i = 0; i < n; i++)
		put(o, s[i]);
}

struct spec {
	bool left, zero, plus, space, alt;
	int width, prec;	/* -1: none */
};

static void pad(struct out *o, int n, char c)
{
	while (n-- > 0)
		put(o, c);
}

static void emit_str(struct out *o, const char *s, const struct spec *sp)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->prec < 0 || n < sp->prec))
		n++;
	if (!sp->left)
		pad(o, sp->width - n, ' ');
	puts_n(o, s, n);
	if (sp->left)
		pad(o, sp->width - n, ' ');
}

static void emit_num(struct out *o, unsigned long long v, bool neg, int base,
		     bool upper, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[32];
	int n = 0, nd, prefix_len = 0;
	char prefix[3];

	if (v == 0 && sp->prec == 0)
		n = 0;
	else
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	nd = n < sp->prec ? sp->prec : n;
	if (neg)
		prefix[prefix_len++] = '-';
	else if (sp->plus)
		prefix[prefix_len++] = '+';
	else if (sp->space)
		prefix[prefix_len++] = ' ';
	if (sp->alt && base == 16 && n) {
		prefix[prefix_len++] = '0';
		prefix[prefix_len++] = upper ? 'X' : 'x';
	} else if (sp->alt && base == 8 && nd == n) {
		nd++;
	}
	int total = prefix_len + nd;

	if (!sp->left && !(sp->zero && sp->prec < 0))
		pad(o, sp->width - total, ' ');
	puts_n(o, prefix, prefix_len);
	if (!sp->left && sp->zero && sp->prec < 0)
		pad(o, sp->width - total, '0');
	pad(o, nd - n, '0');
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, sp->width - total, ' ');
}

int dpmk_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };

	while (*fmt) {
		const char *start = fmt;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			put(&o, *fmt++);
			continue;
		}
		struct spec sp = { .width = -1, .prec = -1 };

		for (;; fmt++) {
			if (*fmt == '-')
				sp.left = true;
			else if (*fmt == '0')
				sp.zero = true;
			else if (*fmt == '+')
				sp.plus = true;
			else if (*fmt == ' ')
				sp.space = true;
			else if (*fmt == '#')
				sp.alt = true;
			else
				break;
		}
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = true;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			for (sp.width = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
				sp.width = sp.width * 10 + (*fmt - '0');
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				fmt++;
			} else {
				for (sp.prec = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
					sp.prec = sp.prec * 10 + (*fmt - '0');
			}
		}
		/* length: 0 int, 1 long, 2 long long, -1 short, -2 char,
		 * 3 size_t, 4 ptrdiff_t, 5 intmax_t */
		int len = 0;

		if (fmt[0] == 'h' && fmt[1] == 'h') {
			len = -2;
			fmt += 2;
		} else if (fmt[0] == 'h') {
			len = -1;
			fmt++;
		} else if (fmt[0] == 'l' && fmt[1] == 'l') {
			len = 2;
			fmt += 2;
		} else if (fmt[0] == 'l') {
			len = 1;
			fmt++;
		} else if (fmt[0] == 'L' || fmt[0] == 'q') {
			len = 2;	/* the kernel's %Ld: long long */
			fmt++;
		} else if (fmt[0] == 'z') {
			len = 3;
			fmt++;
		} else if (fmt[0] == 't') {
			len = 4;
			fmt++;
		} else if (fmt[0] == 'j') {
			len = 5;
			fmt++;
		}
		char c = *fmt;

		if (!c)
			break;
		fmt++;
		switch (c) {
		case 'd':
		case 'i': {
			long long v;

			switch (len) {
			case 1: v = va_arg(ap, long); break;
			case 2:
			case 5: v = va_arg(ap, long long); break;
			case 3:
			case 4: v = va_arg(ap, long); break;
			case -1: v = (short)va_arg(ap, int); break;
			case -2: v = (signed char)va_arg(ap, int); break;
			default: v = va_arg(ap, int); break;
			}
			emit_num(&o, v < 0 ? 0ULL - (unsigned long long)v :
				 (unsigned long long)v, v < 0, 10, false, &sp);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			unsigned long long v;

			switch (len) {
			case 1:
			case 3:
			case 4: v = va_arg(ap, unsigned long); break;
			case 2:
			case 5: v = va_arg(ap, unsigned long long); break;
			case -1: v = (unsigned short)va_arg(ap, unsigned int); break;
			case -2: v = (unsigned char)va_arg(ap, unsigned int); break;
			default: v = va_arg(ap, unsigned int); break;
			}
			sp.plus = sp.space = false;
			emit_num(&o, v, false, c == 'u' ? 10 : c == 'o' ? 8 : 16,
				 c == 'X', &sp);
			break;
		}
		case 'c': {
			char ch = (char)va_arg(ap, int);

			if (!sp.left)
				pad(&o, sp.width - 1, ' ');
			put(&o, ch);
			if (sp.left)
				pad(&o, sp.width - 1, ' ');
			break;
		}
		case 's':
			emit_str(&o, va_arg(ap, const char *), &sp);
			break;
		case 'p': {
			void *p = va_arg(ap, void *);
			const char *sym = NULL;
			char ext = 0;

			if ((*fmt >= 'a' && *fmt <= 'z') || (*fmt >= 'A' && *fmt <= 'Z'))
				ext = *fmt++;
			if (ext == 'S' || ext == 's' || ext == 'F' || ext == 'f' ||
			    ext == 'B')
				sym = dpmk_symbol(p);
			if (sym) {
				emit_str(&o, sym, &sp);
			} else {
				struct spec hex = { .alt = true, .prec = -1,
						    .width = sp.width, .left = sp.left };

				emit_num(&o, (unsigned long long)(uintptr_t)p, false,
					 16, false, &hex);
			}
			break;
		}
		case 'n':
			/* Never write through a format argument. */
			(void)va_arg(ap, void *);
			break;
		default:
			/* Unknown: copy the conversion as written. */
			puts_n(&o, start, (int)(fmt - start));
			break;
		}
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return (int)o.len;
}

int dpmk_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = dpmk_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* One log line per line of text, the level prefix and newlines removed. */
static void log_text(const char *prefix, const char *text)
{
	char line[600];

	while (*text) {
		const char *nl = text;
		int n;

		while (*nl && *nl != '\n')
			nl++;
		n = dpmk_snprintf(line, sizeof(line), "%s%.*s", prefix,
				  (int)(nl - text), text);
		(void)n;
		dpmk_host_log(line);
		text = *nl ? nl + 1 : nl;
	}
}

static const char *skip_level(const char *fmt)
{
	while (fmt[0] == '\001' && fmt[1])
		fmt += 2;
	return fmt;
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	char text[1024];

	if (!dpmk_log_on)
		return;
	dpmk_vsnprintf(text, sizeof(text), skip_level(fmt), ap);
	log_text(prefix, text);
}

int _printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
	return 0;
}

/* The name dev_*() messages start with: driver, else bus, else class. */
static const char *dev_driver_string(const struct device *dev)
{
	const struct device_driver *drv = READ_ONCE(dev->driver);

	if (drv)
		return drv->name;
	if (dev->bus)
		return dev->bus->name;
	return dev->class ? dev->class->name : "";
}

void _dev_printk(const char *level, const struct device *dev, const char *fmt, ...)
{
	char prefix[96];
	va_list ap;

	if (!dpmk_log_on)
		return;
	dpmk_snprintf(prefix, sizeof(prefix), "%s %s: ", dev_driver_string(dev),
		      dev_name(dev));
	va_start(ap, fmt);
	vlog(prefix, fmt, ap);
	va_end(ap);
}

void _printk_args(int unused, ...)
{
	(void)unused;
}

void _dev_printk_args(const struct device *dev, ...)
{
	/* What _dev_printk() reads of the device first. */
	(void)dev_name(dev);
}

/* The runtime's own lines, marked as such. */
void dpmk_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("dpmk: ", fmt, ap);
	va_end(ap);
}

void dump_stack(void)
{
	dpmk_log("(stack dump requested: %s)", dpmk_host_task_name());
}
