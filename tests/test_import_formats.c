// SPDX-License-Identifier: GPL-2.0-only
/*
 * dpmimport's formats, each on a small excerpt written for this test
 * (not copied from any capture; the device names are the kinds real
 * machines have): what each line form gives, and what the importer
 * decides where a log is ambiguous.  Each excerpt says what it must
 * give beside it.  The real captures are tools/import_test.sh's.
 */
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "import.h"
#include "scenario/scenario.h"
#include "variants/variant.h"

static struct import_result res;
static struct scenario scn;
static char err[512];
static FILE *summary;		/* if set, the next import's --summary */

/* Import; 0 or IMPORT_BAD_INPUT.  The first transition goes to scn. */
static int import(const char *dmesg, const char *ftrace, const char *html)
{
	struct import_request rq = { 0 };
	char perr[256];
	int rc;

	import_result_free(&res);
	scenario_free(&scn);
	scenario_init(&scn);
	if (dmesg)
		rq.dmesg = (struct import_capture){ "t_dmesg.txt", dmesg, strlen(dmesg) };
	if (ftrace)
		rq.ftrace = (struct import_capture){ "t_ftrace.txt", ftrace, strlen(ftrace) };
	if (html)
		rq.html = (struct import_capture){ "t.html", html, strlen(html) };
	rq.summary = summary;
	rc = import_captures(&rq, &res, err, sizeof(err));
	summary = NULL;
	if (!rc && scenario_parse(res.text[0], strlen(res.text[0]), &scn, perr,
				  sizeof(perr))) {
		fprintf(stderr, "the import does not parse: %s\n", perr);
		return -1;
	}
	return rc;
}

static const char *text(void)
{
	return res.ncycle ? res.text[0] : "";
}

/* The device named name in scn, or NULL. */
static const struct scn_device *dev(const char *name)
{
	for (int i = 0; i < scn.ndev; i++)
		if (!strcmp(scn.dev[i].name, name))
			return &scn.dev[i];
	fprintf(stderr, "no device %s in:\n%s\n", name, text());
	return NULL;
}

static int idx(const char *name)
{
	const struct scn_device *d = dev(name);

	return d ? (int)(d - scn.dev) : -1;
}

/* The name of d's parent, or "" for a root. */
static const char *parent_of(const char *name)
{
	const struct scn_device *d = dev(name);

	return d && d->parent >= 0 ? scn.dev[d->parent].name : "";
}

static unsigned int dur(const char *name, int ph)
{
	const struct scn_device *d = dev(name);

	return d ? d->beh.dur_us[ph] : 0;
}

/* ---- dmesg, 3.x ---- */

static const char dmesg_3x[] =
	"# suspend-061314-132459 box mem 3.15.0-latest\n"
	"[  550.850408] calling  7-0061+ @ 4122, parent: i2c-7\n"
	"[  550.850410] call 7-0061+ returned 0 after 1000 usecs\n"
	"[  550.850411] calling  usb1+ @ 77, parent: 0000:00:14.0\n"
	"[  550.850413] calling  i2c-7+ @ 4122, parent: none\n"
	"[  550.850414] call i2c-7+ returned 0 after 2000 usecs\n"
	"[  550.850415] call usb1+ returned -16 after 10 usecs\n"
	"[  551.000000] PM: suspend of devices complete after 150.000 msecs\n"
	"[  551.100000] calling  i2c-7+ @ 4122, parent: none\n"
	"[  551.100001] call i2c-7+ returned 0 after 3000 usecs\n"
	"[  551.200000] PM: resume of devices complete after 100.000 msecs\n";

static void test_dmesg_3x(void)
{
	/* The tree from the parent fields (0000:00:14.0 only a parent),
	 * usb1 async (another PID), its error, times scaled by 1.024
	 * (before 5.14 "usecs" are ns >> 10), on modern. */
	EXPECT_EQ(import(dmesg_3x, NULL, NULL), 0);
	EXPECT_EQ(res.ncycle, 1);
	EXPECT_STR_EQ(res.variant, "modern");
	EXPECT_STR_EQ(scn.variant, "modern");
	EXPECT_EQ(scn.ndev, 4);
	EXPECT_STR_EQ(parent_of("7-0061"), "i2c-7");
	EXPECT_STR_EQ(parent_of("i2c-7"), "");
	EXPECT_STR_EQ(parent_of("usb1"), "0000:00:14.0");
	EXPECT_TRUE(idx("i2c-7") < idx("7-0061"));
	EXPECT_TRUE(dev("usb1") && dev("usb1")->async);
	EXPECT_TRUE(dev("i2c-7") && !dev("i2c-7")->async);
	EXPECT_TRUE(dev("usb1") && dev("usb1")->beh.err[PH_SUSPEND] == -16);
	EXPECT_EQ(dur("7-0061", PH_SUSPEND), 1024);
	EXPECT_EQ(dur("i2c-7", PH_SUSPEND), 2048);
	EXPECT_EQ(dur("i2c-7", PH_RESUME), 3072);
	EXPECT_CONTAINS(text(), "# capture suspend-061314-132459: box, mode mem, kernel 3.15.0-latest\n");
	EXPECT_CONTAINS(text(), "scaled by 1.024");
}

/* ---- dmesg, 4.x to 6.x ---- */

static const char dmesg_5x[] =
	"# suspend-092119-144817 box mem 5.3.0+\n"
	"[   25.606150] input input26: calling input_dev_suspend+0x0/0x60 @ 1746, parent: 0018:056A:5113.0001\n"
	"[   25.606162] input input26: input_dev_suspend+0x0/0x60 returned 0 after 1000 usecs\n"
	"[   25.606171] system 00:01: calling pnp_bus_suspend+0x0/0x20 @ 1746, parent: pnp0\n"
	"[   25.606172] system 00:01: pnp_bus_suspend+0x0/0x20 returned 0 after 1 usecs\n"
	"[   25.606173] i8042 kbd 00:04: PM: calling pnp_bus_suspend+0x0/0x20 [pnp] @ 1746, parent: pnp0\n"
	"[   25.606177] i8042 kbd 00:04: PM: pnp_bus_suspend+0x0/0x20 [pnp] returned -5 after 100 usecs\n"
	"[   25.606180]  platform: calling platform_pm_suspend+0x0/0x50 @ 1746, parent: none\n"
	"[   25.606181]  platform: platform_pm_suspend+0x0/0x50 returned 0 after 2 usecs\n"
	"[   25.700000] PM: suspend of devices complete after 1.200 msecs\n"
	"[   25.700001] PM: start suspend of devices complete after 1.300 msecs\n";

static void test_dmesg_5x(void)
{
	/* dev_info() lines: "DRIVER DEV: [PM: ]calling FUNC [MOD] @ PID";
	 * "i8042 kbd 00:04" is the device 00:04 (nothing says otherwise:
	 * the last word), and the output says how it read it. */
	EXPECT_EQ(import(dmesg_5x, NULL, NULL), 0);
	EXPECT_EQ(scn.ndev, 6);
	EXPECT_STR_EQ(parent_of("00:04"), "pnp0");
	EXPECT_STR_EQ(parent_of("00:01"), "pnp0");
	EXPECT_STR_EQ(parent_of("input26"), "0018:056A:5113.0001");
	EXPECT_STR_EQ(parent_of("platform"), "");
	EXPECT_TRUE(dev("00:04") && dev("00:04")->beh.err[PH_SUSPEND] == -5);
	EXPECT_EQ(dur("input26", PH_SUSPEND), 1024);
	EXPECT_CONTAINS(text(), "'i8042 kbd 00:04' read as driver 'i8042 kbd', device '00:04'");
	EXPECT_TRUE(!strstr(text(), "initcall_debug on"));
}

static const char dmesg_6x_no_phase_lines[] =
	"[  100.000001] pci 0000:00:02.0: PM: calling pci_pm_suspend+0x0/0x150 @ 9, parent: pci0000:00\n"
	"[  100.000002] pci 0000:00:02.0: PM: pci_pm_suspend+0x0/0x150 returned 0 after 500 usecs\n"
	"[  100.000003] pci 0000:00:02.0: PM: calling pci_pm_suspend_noirq+0x0/0x150 @ 9, parent: pci0000:00\n"
	"[  100.000004] pci 0000:00:02.0: PM: pci_pm_suspend_noirq+0x0/0x150 returned 0 after 40 usecs\n"
	"[  100.000005] pci 0000:00:02.0: PM: calling pci_pm_resume_noirq+0x0/0x150 @ 9, parent: pci0000:00\n"
	"[  100.000006] pci 0000:00:02.0: PM: pci_pm_resume_noirq+0x0/0x150 returned 0 after 30 usecs\n"
	"[  100.000007] pci 0000:00:02.0: PM: calling pci_pm_resume+0x0/0x150 @ 9, parent: pci0000:00\n"
	"[  100.000008] pci 0000:00:02.0: PM: pci_pm_resume+0x0/0x150 returned 0 after 700 usecs\n"
	"[  100.000009] Linux version 6.12.5 (someone@somewhere)\n";

static void test_dmesg_6x(void)
{
	/* No pm_debug_messages: each callback's phase is in its function's
	 * name; 6.12 prints true microseconds (no scaling). */
	EXPECT_EQ(import(dmesg_6x_no_phase_lines, NULL, NULL), 0);
	EXPECT_EQ(res.ncycle, 1);
	EXPECT_EQ(dur("0000:00:02.0", PH_SUSPEND), 500);
	EXPECT_EQ(dur("0000:00:02.0", PH_SUSPEND_NOIRQ), 40);
	EXPECT_EQ(dur("0000:00:02.0", PH_RESUME_NOIRQ), 30);
	EXPECT_EQ(dur("0000:00:02.0", PH_RESUME), 700);
	EXPECT_CONTAINS(text(), "# kernel 6.12.5\n");
	EXPECT_TRUE(!strstr(text(), "scaled"));
}

/* ---- ftrace ---- */

#define FT(task, ts, ev) " " task " [001] .....  " ts ": " ev "\n"

static const char ftrace_x[] =
	"# suspend-120216-164408 box mem 4.9.0-rc7+\n"
	"# tracer: nop\n"
	FT("sleep graph-12", "10.000000", "suspend_resume: dpm_prepare[2] begin")
	FT("sleep graph-12", "10.000001", "device_pm_callback_start: pci pci0000:00, parent: none, [suspend]")
	FT("sleep graph-12", "10.000002", "device_pm_callback_end: pci pci0000:00, err=0")
	FT("sleep graph-12", "10.000003", "device_pm_callback_start: sd 4:0:0:0, parent: target4:0:0, [suspend]")
	FT("sleep graph-12", "10.000004", "device_pm_callback_end: sd 4:0:0:0, err=0")
	FT("sleep graph-12", "10.000005", "device_pm_callback_start: scsi_disk 4:0:0:0, parent: 4:0:0:0, [suspend]")
	FT("sleep graph-12", "10.000006", "device_pm_callback_end: scsi_disk 4:0:0:0, err=0")
	FT("sleep graph-12", "10.000006", "device_pm_callback_start: scsi_device 4:0:0:0, parent: 4:0:0:0, [suspend]")
	FT("sleep graph-12", "10.000006", "device_pm_callback_end: scsi_device 4:0:0:0, err=0")
	FT("sleep graph-12", "10.000007", "device_pm_callback_start: block sdb, parent: 4:0:0:0, [suspend]")
	FT("sleep graph-12", "10.000008", "device_pm_callback_end: block sdb, err=0")
	FT("sleep graph-12", "10.000009", "device_pm_callback_start: usb_endpoint ep_81, parent: 1-1:1.0, [suspend]")
	FT("sleep graph-12", "10.000010", "device_pm_callback_end: usb_endpoint ep_81, err=0")
	FT("sleep graph-12", "10.000011", "device_pm_callback_start: usb_endpoint ep_81, parent: 2-1:1.0, [suspend]")
	FT("sleep graph-12", "10.000012", "device_pm_callback_end: usb_endpoint ep_81, err=0")
	FT("sleep graph-12", "10.000013", "device_pm_callback_start: pcieport 0000:00:1c.0, parent: pci0000:00, [suspend]")
	FT("sleep graph-12", "10.000014", "device_pm_callback_end: pcieport 0000:00:1c.0, err=0")
	FT("sleep graph-12", "10.000015", "device_pm_callback_start: platform Fixed MDIO bus.0, parent: platform, [suspend]")
	FT("sleep graph-12", "10.000016", "device_pm_callback_end: platform Fixed MDIO bus.0, err=0")
	FT("sleep graph-12", "10.000017", "device_pm_callback_start: mdio_bus fixed-0, parent: Fixed MDIO bus.0, [suspend]")
	FT("sleep graph-12", "10.000018", "device_pm_callback_end: mdio_bus fixed-0, err=0")
	FT("sleep graph-12", "10.000019", "device_pm_callback_start: platform serial8250, parent: platform, [suspend]")
	FT("sleep graph-12", "10.000020", "device_pm_callback_end: platform serial8250, err=0")
	FT("sleep graph-12", "10.000021", "device_pm_callback_start: platform alarmtimer, parent: platform, [suspend]")
	FT("sleep graph-12", "10.000022", "device_pm_callback_end: platform alarmtimer, err=0")
	FT("sleep graph-12", "10.000023", "device_pm_callback_start: platform pcspkr, parent: platform, [suspend]")
	FT("sleep graph-12", "10.000024", "device_pm_callback_end: platform pcspkr, err=0")
	FT("sleep graph-12", "10.000025", "device_pm_callback_start: platform Fixed MDIO bus.1, parent: platform, [suspend]")
	FT("sleep graph-12", "10.000026", "device_pm_callback_end: platform Fixed MDIO bus.1, err=0")
	FT("sleep graph-12", "10.000027", "device_pm_callback_start: ec PNP0C09:00, parent: device:01, [suspend]")
	FT("sleep graph-12", "10.000028", "device_pm_callback_end: ec PNP0C09:00, err=0")
	FT("sleep graph-12", "10.000029", "device_pm_callback_start: acpi ACPI0008:00, parent: PNP0C09:00, [suspend]")
	FT("sleep graph-12", "10.000030", "device_pm_callback_end: acpi ACPI0008:00, err=0")
	FT("sleep graph-12", "10.000031", "device_pm_callback_start: platform PNP0C09:00, parent: 0000:00:1f.0, [suspend]")
	FT("sleep graph-12", "10.000032", "device_pm_callback_end: platform PNP0C09:00, err=0")
	FT("sleep graph-12", "10.000033", "device_pm_callback_start: platform PNP0C0A:01, parent: PNP0C09:00, [suspend]")
	FT("sleep graph-12", "10.000034", "device_pm_callback_end: platform PNP0C0A:01, err=0")
	FT("sleep graph-12", "10.000035", "device_pm_callback_start: platform intel_pmc_core.0, parent: 0000:00:1f.2, [suspend]")
	FT("sleep graph-12", "10.000036", "device_pm_callback_end: platform intel_pmc_core.0, err=0")
	FT("sleep graph-12", "10.000037", "device_pm_callback_start: input input0, parent: PNP0C09:00, [suspend]")
	FT("sleep graph-12", "10.000038", "device_pm_callback_end: input input0, err=0")
	FT("sleep graph-12", "10.000100", "suspend_resume: dpm_prepare[2] end")
	FT("sleep graph-12", "10.000200", "suspend_resume: dpm_suspend[2] begin")
	FT("kworker/u8:3-99 (99)", "10.000300", "device_pm_callback_start: sd 4:0:0:0, parent: target4:0:0, bus [suspend]")
	FT("kworker/u8:3-99 (99)", "10.820300", "device_pm_callback_end: sd 4:0:0:0, err=0")
	FT("sleep graph-12", "10.820400", "device_pm_callback_start: pcieport 0000:00:1c.0, parent: pci0000:00, bus [suspend]")
	FT("sleep graph-12", "10.820500", "device_pm_callback_end: pcieport 0000:00:1c.0, err=-16")
	FT("sleep graph-12", "10.820600", "suspend_resume: dpm_suspend[2] end")
	FT("sleep graph-12", "20.000000", "suspend_resume: dpm_resume[16] begin")
	FT("sleep graph-12", "20.000100", "device_pm_callback_start: pci 0000:00:1c.0, parent: pci0000:00, bus [resume]")
	FT("sleep graph-12", "20.000300", "device_pm_callback_end: pci 0000:00:1c.0, err=0")
	FT("sleep graph-12", "20.001000", "suspend_resume: dpm_resume[16] end")
	FT("sleep graph-12", "20.001001", "suspend_resume: dpm_complete[16] begin")
	FT("sleep graph-12", "20.001002", "suspend_resume: dpm_complete[16] end");

static void test_ftrace_identity(void)
{
	/* Callbacks, times and async from the events; identity is driver +
	 * name + parent: */
	EXPECT_EQ(import(NULL, ftrace_x, NULL), 0);
	/* sd's 820 ms suspend, on a kworker: async */
	EXPECT_EQ(dur("4:0:0:0", PH_SUSPEND), 820000);
	EXPECT_TRUE(dev("4:0:0:0") && dev("4:0:0:0")->async);
	EXPECT_TRUE(dev("4:0:0:0") && !dev("4:0:0:0")->beh.err[PH_SUSPEND]);
	/* class devices sharing sd's name, under it, and so sharing a name
	 * and a parent: three devices, noted; and sdb's "parent: 4:0:0:0"
	 * is sd, not a class device */
	EXPECT_STR_EQ(parent_of("4:0:0:0~2"), "4:0:0:0");
	EXPECT_STR_EQ(parent_of("4:0:0:0~3"), "4:0:0:0");
	EXPECT_STR_EQ(parent_of("sdb"), "4:0:0:0");
	EXPECT_CONTAINS(text(), "4:0:0:0~2 is the device named 4:0:0:0 with driver 'scsi_disk'");
	EXPECT_CONTAINS(text(), "4:0:0:0~3 is the device named 4:0:0:0 with driver 'scsi_device'");
	/* one name under two parents: two devices */
	EXPECT_STR_EQ(parent_of("ep_81"), "1-1:1.0");
	EXPECT_STR_EQ(parent_of("ep_81~2"), "2-1:1.0");
	/* pcieport suspends, then (unbound) prints "pci" as it resumes:
	 * never both in one phase, so one device, with both callbacks */
	EXPECT_TRUE(dev("0000:00:1c.0") && dev("0000:00:1c.0")->beh.err[PH_SUSPEND] == -16);
	EXPECT_EQ(dur("0000:00:1c.0", PH_RESUME), 200);
	EXPECT_TRUE(!strstr(text(), "0000:00:1c.0~2"));
	EXPECT_CONTAINS(text(), "its driver changed");
	/* device names with blanks: one told by its child naming it, one
	 * by "platform" printing alone for three other devices (a bus) */
	EXPECT_STR_EQ(parent_of("Fixed_MDIO_bus.1"), "platform");
	EXPECT_STR_EQ(parent_of("fixed-0"), "Fixed_MDIO_bus.0");
	EXPECT_CONTAINS(text(), "'platform Fixed MDIO bus.0' read as driver 'platform', device 'Fixed MDIO bus.0'");
	/* an ACPI device and the platform device made from it share a name:
	 * an ACPI child's parent is the one with a driver of its own (the
	 * other prints the bus "platform"), a platform child's the one of
	 * its bus */
	EXPECT_STR_EQ(parent_of("ACPI0008:00"), "PNP0C09:00");
	EXPECT_STR_EQ(parent_of("input0"), "PNP0C09:00");
	EXPECT_STR_EQ(parent_of("PNP0C0A:01"), "PNP0C09:00~2");
	EXPECT_STR_EQ(scn.variant, "modern");
}

/* dpm_list order: prepare (synchronous, on the PM thread) runs b before
 * a; resume runs them async in the other order.  b comes first. */
static const char ftrace_order[] =
	FT("pm-1", "1.000000", "suspend_resume: dpm_prepare[2] begin")
	FT("pm-1", "1.000001", "device_pm_callback_start: drv root, parent: none, [suspend]")
	FT("pm-1", "1.000002", "device_pm_callback_end: drv root, err=0")
	FT("pm-1", "1.000003", "device_pm_callback_start: drv b, parent: root, [suspend]")
	FT("pm-1", "1.000004", "device_pm_callback_end: drv b, err=0")
	FT("pm-1", "1.000005", "device_pm_callback_start: drv a, parent: root, [suspend]")
	FT("pm-1", "1.000006", "device_pm_callback_end: drv a, err=0")
	FT("pm-1", "1.000007", "suspend_resume: dpm_prepare[2] end")
	FT("pm-1", "2.000000", "suspend_resume: dpm_resume[16] begin")
	FT("w-7", "2.000001", "device_pm_callback_start: drv a, parent: root, bus [resume]")
	FT("w-7", "2.000002", "device_pm_callback_end: drv a, err=0")
	FT("w-8", "2.000003", "device_pm_callback_start: drv b, parent: root, bus [resume]")
	FT("w-8", "2.000004", "device_pm_callback_end: drv b, err=0")
	FT("pm-1", "2.000005", "suspend_resume: dpm_resume[16] end");

static void test_ftrace_order(void)
{
	EXPECT_EQ(import(NULL, ftrace_order, NULL), 0);
	EXPECT_TRUE(idx("root") < idx("b"));
	EXPECT_TRUE(idx("b") < idx("a"));
	EXPECT_TRUE(dev("a") && dev("a")->async);
	EXPECT_STR_EQ(res.variant, "modern");	/* no version: modern */
	EXPECT_CONTAINS(text(), "no kernel version in the capture");
}

/* ---- both logs ---- */

static const char ftrace_one[] =
	"# suspend-092119-144817 box mem 5.3.0+\n"
	FT("pm-5", "1.000000", "suspend_resume: dpm_suspend[2] begin")
	FT("pm-5", "1.000001", "device_pm_callback_start: drv d1, parent: none, bus [suspend]")
	FT("pm-5", "1.003001", "device_pm_callback_end: drv d1, err=0")
	FT("pm-5", "1.004000", "suspend_resume: dpm_suspend[2] end")
	FT("pm-5", "2.000000", "suspend_resume: dpm_resume[16] begin")
	FT("pm-5", "2.000001", "device_pm_callback_start: drv d1, parent: none, bus [resume]")
	FT("pm-5", "2.001001", "device_pm_callback_end: drv d1, err=0")
	FT("pm-5", "2.002000", "suspend_resume: dpm_resume[16] end");

static const char dmesg_phases_only[] =
	"# suspend-092119-144817 box mem 5.3.0+\n"
	"[    1.004001] PM: suspend of devices complete after 4.000 msecs\n"
	"[    2.002001] PM: resume of devices complete after 2.100 msecs\n";

static void test_both(void)
{
	/* Since 4.x the dmesg has phase lines only: callbacks from the
	 * ftrace, the phase times cross-checked. */
	EXPECT_EQ(import(dmesg_phases_only, ftrace_one, NULL), 0);
	EXPECT_EQ(scn.ndev, 1);
	EXPECT_EQ(dur("d1", PH_SUSPEND), 3000);
	EXPECT_EQ(dur("d1", PH_RESUME), 1000);
	EXPECT_CONTAINS(text(), "# cross-check: the dmesg has no callback lines");
	EXPECT_CONTAINS(text(), "differ by at most 0.100 ms (resume)");
	/* the dmesg alone: one stand-in device taking each phase's time */
	EXPECT_EQ(import(dmesg_phases_only, NULL, NULL), 0);
	EXPECT_EQ(scn.ndev, 1);
	EXPECT_EQ(dur("all-devices", PH_SUSPEND), 4000);
	EXPECT_EQ(dur("all-devices", PH_RESUME), 2100);
	EXPECT_CONTAINS(text(), "all-devices stands for every device");
	/* logs of two runs */
	EXPECT_EQ(import(dmesg_3x, ftrace_one, NULL), IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "are from different runs");
}

/* ---- several transitions, hibernation ---- */

static const char ftrace_x2[] =
	FT("pm-5", "1.000000", "suspend_resume: dpm_suspend[2] begin")
	FT("pm-5", "1.000001", "device_pm_callback_start: drv d1, parent: none, bus [suspend]")
	FT("pm-5", "1.000101", "device_pm_callback_end: drv d1, err=0")
	FT("pm-5", "1.000200", "suspend_resume: dpm_suspend[2] end")
	FT("pm-5", "2.000000", "suspend_resume: dpm_resume[16] begin")
	FT("pm-5", "2.000001", "device_pm_callback_start: drv d1, parent: none, bus [resume]")
	FT("pm-5", "2.000002", "device_pm_callback_end: drv d1, err=0")
	FT("pm-5", "2.000200", "suspend_resume: dpm_resume[16] end")
	FT("pm-5", "3.000000", "suspend_resume: dpm_suspend[2] begin")
	FT("pm-5", "3.000001", "device_pm_callback_start: drv d1, parent: none, bus [suspend]")
	FT("pm-5", "3.000301", "device_pm_callback_end: drv d1, err=-5")
	FT("pm-5", "3.000400", "suspend_resume: dpm_suspend[2] end")
	FT("pm-5", "4.000000", "suspend_resume: dpm_resume[16] begin")
	FT("pm-5", "4.000200", "suspend_resume: dpm_resume[16] end");

/* A wakeup aborts the noirq suspend: 4.x runs dpm_resume_noirq() inside
 * dpm_suspend_noirq() and says the phase failed. */
static const char ftrace_nested[] =
	FT("pm-5", "1.000000", "suspend_resume: dpm_suspend_noirq[2] begin")
	FT("pm-5", "1.000001", "device_pm_callback_start: pci 0000:00:1d.0, parent: pci0000:00, noirq bus [suspend]")
	FT("pm-5", "1.000041", "device_pm_callback_end: pci 0000:00:1d.0, err=0")
	FT("pm-5", "1.000100", "suspend_resume: dpm_resume_noirq[16] begin")
	FT("pm-5", "1.000101", "device_pm_callback_start: pci 0000:00:1d.0, parent: pci0000:00, noirq bus [resume]")
	FT("pm-5", "1.000171", "device_pm_callback_end: pci 0000:00:1d.0, err=0")
	FT("pm-5", "1.000200", "suspend_resume: dpm_resume_noirq[16] end")
	FT("pm-5", "1.000300", "suspend_resume: dpm_suspend_noirq[2] end")
	FT("pm-5", "1.000400", "suspend_resume: dpm_resume_early[16] begin")
	FT("pm-5", "1.000500", "suspend_resume: dpm_resume_early[16] end");

static const char dmesg_failed[] =
	"[  190.088954] PM: noirq resume of devices complete after 0.100 msecs\n"
	"[  190.088988] PM: noirq suspend of devices failed\n"
	"[  190.103295] PM: early resume of devices complete after 0.100 msecs\n";

static const char dmesg_hibernate[] =
	"[  113.457739] calling  sda+ @ 7, parent: host0\n"
	"[  113.457740] call sda+ returned 0 after 500 usecs\n"
	"[  113.457741] PM: freeze of devices complete after 55.045 msecs\n"
	"[  113.458026] PM: late freeze of devices complete after 0.284 msecs\n"
	"[  113.458744] PM: noirq freeze of devices complete after 0.715 msecs\n"
	"[  114.314552] PM: noirq restore of devices complete after 15.454 msecs\n"
	"[  114.314844] PM: early restore of devices complete after 0.270 msecs\n"
	"[  116.355564] calling  sda+ @ 7, parent: host0\n"
	"[  116.355565] call sda+ returned 0 after 1000 usecs\n"
	"[  116.355566] PM: restore of devices complete after 1975.523 msecs\n";

static void test_transitions(void)
{
	/* sleepgraph -x2: one scenario per transition, each with its own
	 * times and errors */
	EXPECT_EQ(import(NULL, ftrace_x2, NULL), 0);
	EXPECT_EQ(res.ncycle, 2);
	EXPECT_EQ(dur("d1", PH_SUSPEND), 100);
	EXPECT_TRUE(dev("d1") && !dev("d1")->beh.err[PH_SUSPEND]);
	EXPECT_CONTAINS(res.text[0], "# transition 1 of 2: suspend, resume\n");
	EXPECT_CONTAINS(res.text[1], "# transition 2 of 2: suspend, resume\n");
	EXPECT_CONTAINS(res.text[1], "device d1 suspend=300us err=suspend:-5\n");
	/* a resume phase inside a suspend phase: its callbacks are the
	 * resume phase's, and it is still one transition; the dmesg's
	 * "failed" is noted */
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *out = open_memstream(&sum, &sumlen);

	summary = out;
	EXPECT_EQ(import(dmesg_failed, ftrace_nested, NULL), 0);
	fclose(out);
	/* dpm_suspend_noirq took 0.3 ms, the nested resume_noirq 0.1 */
	EXPECT_CONTAINS(sum, "\nsuspend_noirq          1           40         0.300");
	EXPECT_CONTAINS(sum, "\nresume_noirq           1           70         0.100         0.100");
	free(sum);
	EXPECT_EQ(res.ncycle, 1);
	EXPECT_EQ(dur("0000:00:1d.0", PH_SUSPEND_NOIRQ), 40);
	EXPECT_EQ(dur("0000:00:1d.0", PH_RESUME_NOIRQ), 70);
	EXPECT_CONTAINS(text(), "the dmesg says 'PM: noirq suspend of devices failed'");
	/* hibernation: freeze and restore run as suspend and resume */
	EXPECT_EQ(import(dmesg_hibernate, NULL, NULL), 0);
	EXPECT_EQ(res.ncycle, 1);
	EXPECT_EQ(dur("sda", PH_SUSPEND), 512);
	EXPECT_EQ(dur("sda", PH_RESUME), 1024);
	EXPECT_CONTAINS(text(), "# transition 1 of 1: freeze, restore (run as the suspend and resume phases at the same place)\n");
}

/* ---- sleepgraph's page ---- */

static const char page[] =
	"<!DOCTYPE html>\n<html><head><title>box Suspend 3.15.0</title></head><body>\n"
	"<div class=\"timeline\">boxes the logs were drawn into</div>\n"
	"<div id=\"dmesglog\" style=\"display:none;\">\n"
	"# suspend-061314-132459 box mem 3.15.0-latest\n"
	"[  550.850400] &lt6&gt; a line with sleepgraph's escapes &amp; more\n"
	"[  550.850408] calling  7-0061+ @ 4122, parent: i2c-7\n"
	"[  550.850410] call 7-0061+ returned 0 after 1000 usecs\n"
	"[  550.850411] calling  a&gtb+ @ 4122, parent: none\n"
	"[  550.850412] call a&gt;b+ returned 0 after 1000 usecs\n"
	"[  551.000000] PM: suspend of devices complete after 150.000 msecs\n"
	"</div>\n"
	"<div id=\"ftracelog\" style=\"display:none;\">\n"
	"# suspend-061314-132459 box mem 3.15.0-latest\n"
	FT("pm-4122", "550.850408", "suspend_resume: dpm_suspend[2] begin")
	FT("pm-4122", "550.850408", "device_pm_callback_start: tuner 7-0061, parent: i2c-7, bus [suspend]")
	FT("pm-4122", "550.851408", "device_pm_callback_end: tuner 7-0061, err=0")
	FT("pm-4122", "550.999000", "suspend_resume: dpm_suspend[2] end")
	"</div>\n</body>\n</html>\n";

static void test_html(void)
{
	/* The embedded dmesg and ftrace: the same as the two files; '>'
	 * as sleepgraph writes it ("&gt") and as a browser does ("&gt;"). */
	EXPECT_EQ(import(NULL, NULL, page), 0);
	EXPECT_EQ(dur("7-0061", PH_SUSPEND), 1000);
	EXPECT_EQ(dur("a>b", PH_SUSPEND), 1024);
	EXPECT_STR_EQ(parent_of("7-0061"), "i2c-7");
	EXPECT_CONTAINS(text(), "# imported by dpmimport from t.html: its dmesg\n");
	EXPECT_CONTAINS(text(), "# imported by dpmimport from t.html: its ftrace\n");
	EXPECT_CONTAINS(text(), "1 devices called back in both logs");
	/* a page without logs, and a page beside a log */
	EXPECT_EQ(import(NULL, NULL, "<html><body>a timeline</body></html>"),
		  IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "no dmesg or ftrace log in this page");
	EXPECT_EQ(import(dmesg_3x, NULL, page), IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "give a sleepgraph page alone");
}

/* ---- bad input ---- */

static void test_bad(void)
{
	EXPECT_EQ(import("\037\213\010\000junk", NULL, NULL), IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "gzip-compressed");
	EXPECT_EQ(import("no callbacks, no phases\n", NULL, NULL), IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "t_dmesg.txt: no PM callback lines");
	EXPECT_EQ(import(NULL, dmesg_3x, NULL), IMPORT_BAD_INPUT);
	EXPECT_CONTAINS(err, "no device_pm_callback or suspend_resume events");
	EXPECT_EQ(res.ncycle, 0);
	EXPECT_TRUE(!strchr(err, '\n'));
}

/* ---- the variant ---- */

static const char *pick(const char *version, const char *names)
{
	static char buf[32];

	return import_pick_variant(version, names, buf, sizeof(buf), NULL, 0);
}

static void test_variant(void)
{
	static const char later[] = "seed, modern, rwsem, kernel-6.1.150, kernel-6.12.1, kernel-6.12.118";

	/* today's list: modern for everything after 2.6.33 */
	EXPECT_STR_EQ(pick("3.15.0-latest", variant_names()), "modern");
	EXPECT_STR_EQ(pick("5.3.0-rc7+", variant_names()), "modern");
	EXPECT_STR_EQ(pick("6.16.0", variant_names()), "modern");
	EXPECT_STR_EQ(pick("2.6.34", variant_names()), "modern");
	EXPECT_STR_EQ(pick("2.6.33", variant_names()), "seed");
	EXPECT_STR_EQ(pick("", variant_names()), "modern");
	EXPECT_STR_EQ(pick(NULL, variant_names()), "modern");
	EXPECT_STR_EQ(pick("garbage", variant_names()), "modern");
	/* with kernel variants: the one of the same major.minor, the
	 * newest of those; else modern */
	EXPECT_STR_EQ(pick("6.12.5", later), "kernel-6.12.118");
	EXPECT_STR_EQ(pick("6.1.0-rc3", later), "kernel-6.1.150");
	EXPECT_STR_EQ(pick("6.13.0", later), "modern");
	EXPECT_STR_EQ(pick("6.1", later), "kernel-6.1.150");
	EXPECT_STR_EQ(pick("5.3.0+", later), "modern");
}

int main(void)
{
	scenario_init(&scn);
	test_dmesg_3x();
	test_dmesg_5x();
	test_dmesg_6x();
	test_ftrace_identity();
	test_ftrace_order();
	test_both();
	test_transitions();
	test_html();
	test_bad();
	test_variant();
	import_result_free(&res);
	scenario_free(&scn);
	return test_summary("test_import_formats");
}
