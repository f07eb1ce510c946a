// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "rdma_smi": directed-route SMP handling (core/ib_core/mad/smi.c,
 * core/ib_core/mad/smi.h) against the rules of IBTA vol. 1 14.2.2.
 *
 * Every SMP is built by hand.  The paths are filled with port numbers no
 * device has (INIT_FILL, RET_FILL) except the one entry a rule is meant
 * to read, so a step that reads the wrong entry fails.  After each step
 * the whole SMP is compared with the expected one: the verdict, the hop
 * pointer and the return path entry the step writes, and nothing else.
 *
 * Rule numbers: C14-6 bounds the hop count; C14-9 cases 1-5 cover an
 * outbound SMP (D bit clear), C14-13 cases 1-5 a returning one (D bit
 * set), both for the node sending it and the node receiving it:
 *   1  hop pointer at the start of the directed part
 *   2  hop pointer inside it (switches only)
 *   3  hop pointer at its far end (then DrDLID / DrSLID decide)
 *   4  hop pointer past it (outbound: hop count + 1; returning: 0)
 *   5  anything else: discard
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../smi.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define INIT_FILL	0xF0	/* initial path entries no rule should read */
#define RET_FILL	0xE0	/* return path entries no step should touch */
#define SW_PORTS	8	/* phys_port_cnt of the test switch */
#define CA_PORTS	2	/* phys_port_cnt of the test CA */
#define MAX_HOPS	(IB_SMP_MAX_PATH_HOPS - 1)	/* 63 */
#define TEST_LID	cpu_to_be16(0x0011)	/* a plain, routable LID */

/*
 * One send or receive step.  @at/@val put one port number into the path
 * the rule reads (initial_path outbound, return_path returning; @at 0:
 * none).  @want_rp is the return_path entry the step must set to @port
 * (0: none).
 */
struct smi_step {
	const char *desc;
	bool ret;		/* D bit set: returning */
	bool sw;		/* this node is a switch */
	u8 cnt;
	u8 ptr;
	bool dlid_p;		/* DrDLID permissive */
	bool slid_p;		/* DrSLID permissive */
	u32 port;		/* port sent on / received on */
	int ports;		/* phys_port_cnt (receive only) */
	u8 at;
	u8 val;
	enum smi_action want;
	u8 want_ptr;
	u8 want_rp;
};

static void smi_build(struct ib_smp *smp, bool ret, u8 cnt, u8 ptr,
		      bool dlid_p, bool slid_p)
{
	memset(smp, 0, sizeof(*smp));
	smp->base_version = IB_MGMT_BASE_VERSION;
	smp->mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	smp->class_version = 1;
	smp->method = ret ? IB_MGMT_METHOD_GET_RESP : IB_MGMT_METHOD_GET;
	smp->status = ret ? IB_SMP_DIRECTION : 0;
	smp->hop_cnt = cnt;
	smp->hop_ptr = ptr;
	smp->tid = cpu_to_be64(0x1234);
	smp->attr_id = IB_SMP_ATTR_NODE_INFO;
	smp->dr_dlid = dlid_p ? IB_LID_PERMISSIVE : TEST_LID;
	smp->dr_slid = slid_p ? IB_LID_PERMISSIVE : TEST_LID;
	memset(smp->initial_path, INIT_FILL, sizeof(smp->initial_path));
	memset(smp->return_path, RET_FILL, sizeof(smp->return_path));
}

static void smi_build_step(struct ib_smp *smp, const struct smi_step *c)
{
	smi_build(smp, c->ret, c->cnt, c->ptr, c->dlid_p, c->slid_p);
	if (!c->at)
		return;
	if (c->ret)
		smp->return_path[c->at] = c->val;
	else
		smp->initial_path[c->at] = c->val;
}

static void smi_check_step(struct kunit *test, const struct smi_step *c,
			   bool recv)
{
	struct ib_smp smp, want;
	enum smi_action got;

	smi_build_step(&smp, c);
	want = smp;
	want.hop_ptr = c->want_ptr;
	if (c->want_rp)
		want.return_path[c->want_rp] = c->port;

	if (recv)
		got = smi_handle_dr_smp_recv(&smp, c->sw, c->port, c->ports);
	else
		got = smi_handle_dr_smp_send(&smp, c->sw, c->port);

	KUNIT_EXPECT_EQ(test, got, c->want);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, c->want_ptr);
	if (c->want_rp)
		KUNIT_EXPECT_EQ(test, smp.return_path[c->want_rp], (u8)c->port);
	KUNIT_EXPECT_MEMEQ(test, &smp, &want, sizeof(smp));
}

/* ------------------------------------------------------------------
 * Sending (14.2.2.2): smi_handle_dr_smp_send()
 */

static const struct smi_step smi_send_steps[] = {
	/* C14-6: 0..63 hops; 64 and above are dropped untouched. */
	{ .desc = "C14-6 outbound hop_cnt 64 dropped",
	  .cnt = IB_SMP_MAX_PATH_HOPS, .ptr = 0, .port = 1, .at = 1, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },
	{ .desc = "C14-6 outbound hop_cnt 255 dropped on a switch",
	  .sw = true, .cnt = 255, .ptr = 1, .port = 1, .at = 2, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-6 returning hop_cnt 64 dropped",
	  .ret = true, .cnt = IB_SMP_MAX_PATH_HOPS, .ptr = 65, .port = 1,
	  .at = 63, .val = 1, .want = IB_SMI_DISCARD, .want_ptr = 65 },

	/*
	 * C14-9 case 1: the originator (hop count > 0, pointer 0) moves
	 * the pointer to 1 and sends on InitialPath[1]; any other port is
	 * a discard (the pointer has moved all the same).
	 */
	{ .desc = "C14-9.1 CA originates on initial_path[1]",
	  .cnt = 3, .ptr = 0, .port = 1, .at = 1, .val = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.1 CA originates on the wrong port",
	  .cnt = 3, .ptr = 0, .port = 1, .at = 1, .val = 2,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-9.1 port 0 is not initial_path[1] = 1",
	  .cnt = 3, .ptr = 0, .port = 0, .at = 1, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-9.1 switch originates on initial_path[1]",
	  .sw = true, .cnt = 3, .ptr = 0, .port = 5, .at = 1, .val = 5,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.1 63 hops, first hop",
	  .cnt = MAX_HOPS, .ptr = 0, .port = 2, .at = 1, .val = 2,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },

	/*
	 * C14-9 case 2: 0 < pointer < hop count.  Only a switch relays:
	 * pointer + 1, out of InitialPath[new pointer].  A CA drops it
	 * without moving the pointer.
	 */
	{ .desc = "C14-9.2 switch relays at ptr 1",
	  .sw = true, .cnt = 3, .ptr = 1, .port = 6, .at = 2, .val = 6,
	  .want = IB_SMI_HANDLE, .want_ptr = 2 },
	{ .desc = "C14-9.2 switch relays at ptr hop_cnt-1",
	  .sw = true, .cnt = 3, .ptr = 2, .port = 4, .at = 3, .val = 4,
	  .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-9.2 switch relays on the wrong port",
	  .sw = true, .cnt = 3, .ptr = 1, .port = 7, .at = 2, .val = 6,
	  .want = IB_SMI_DISCARD, .want_ptr = 2 },
	{ .desc = "C14-9.2 CA cannot relay",
	  .cnt = 3, .ptr = 1, .port = 6, .at = 2, .val = 6,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-9.2 63 hops, last relay at ptr 62",
	  .sw = true, .cnt = MAX_HOPS, .ptr = 62, .port = 2, .at = 63, .val = 2,
	  .want = IB_SMI_HANDLE, .want_ptr = 63 },

	/*
	 * C14-9 case 3: pointer == hop count, the end of the directed
	 * part: pointer + 1.  A permissive DrDLID means this node is the
	 * target; otherwise a LID-routed part follows, switches only.
	 */
	{ .desc = "C14-9.3 CA at the end, DrDLID permissive",
	  .cnt = 3, .ptr = 3, .dlid_p = true, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 4 },
	{ .desc = "C14-9.3 CA at the end, DrDLID routable",
	  .cnt = 3, .ptr = 3, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 4 },
	{ .desc = "C14-9.3 switch at the end, DrDLID routable",
	  .sw = true, .cnt = 3, .ptr = 3, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 4 },
	{ .desc = "C14-9.3 hop_cnt 0, CA, DrDLID permissive (to itself)",
	  .cnt = 0, .ptr = 0, .dlid_p = true, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.3 hop_cnt 0, CA, DrDLID routable",
	  .cnt = 0, .ptr = 0, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-9.3 hop_cnt 0, switch, DrDLID routable",
	  .sw = true, .cnt = 0, .ptr = 0, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.3 63 hops, switch at the end",
	  .sw = true, .cnt = MAX_HOPS, .ptr = MAX_HOPS, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 64 },
	{ .desc = "C14-9.3 DrSLID does not matter outbound",
	  .cnt = 3, .ptr = 3, .slid_p = true, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 4 },

	/* C14-9 case 4: pointer == hop count + 1: for us, left as it is. */
	{ .desc = "C14-9.4 CA, ptr hop_cnt+1",
	  .cnt = 3, .ptr = 4, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 4 },
	{ .desc = "C14-9.4 hop_cnt 0, ptr 1",
	  .cnt = 0, .ptr = 1, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.4 63 hops, ptr 64",
	  .sw = true, .cnt = MAX_HOPS, .ptr = 64, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 64 },

	/* C14-9 case 5: any other pointer is dropped, untouched. */
	{ .desc = "C14-9.5 switch, ptr hop_cnt+2",
	  .sw = true, .cnt = 3, .ptr = 5, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 5 },
	{ .desc = "C14-9.5 ptr 255",
	  .sw = true, .cnt = 3, .ptr = 255, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 255 },
	{ .desc = "C14-9.5 hop_cnt 0, ptr 2",
	  .cnt = 0, .ptr = 2, .dlid_p = true, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 2 },

	/*
	 * C14-13 case 1: the responder (hop count > 0, pointer == hop
	 * count + 1) turns it round: pointer - 1 and out of
	 * ReturnPath[new pointer], the port the request came in on.
	 */
	{ .desc = "C14-13.1 CA responds on return_path[hop_cnt]",
	  .ret = true, .cnt = 3, .ptr = 4, .port = 2, .at = 3, .val = 2,
	  .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-13.1 CA responds on the wrong port",
	  .ret = true, .cnt = 3, .ptr = 4, .port = 1, .at = 3, .val = 2,
	  .want = IB_SMI_DISCARD, .want_ptr = 3 },
	{ .desc = "C14-13.1 switch responds",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 4, .port = 7, .at = 3,
	  .val = 7, .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-13.1 63 hops, ptr 64",
	  .ret = true, .cnt = MAX_HOPS, .ptr = 64, .port = 1, .at = 63,
	  .val = 1, .want = IB_SMI_HANDLE, .want_ptr = 63 },

	/*
	 * C14-13 case 2: 2 <= pointer <= hop count.  Only a switch relays:
	 * pointer - 1, out of ReturnPath[new pointer]; a CA drops it with
	 * the pointer unmoved.
	 */
	{ .desc = "C14-13.2 switch relays at ptr hop_cnt",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 3, .port = 5, .at = 2,
	  .val = 5, .want = IB_SMI_HANDLE, .want_ptr = 2 },
	{ .desc = "C14-13.2 switch relays at ptr 2",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 2, .port = 3, .at = 1,
	  .val = 3, .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-13.2 switch relays on the wrong port",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 2, .port = 4, .at = 1,
	  .val = 3, .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-13.2 CA cannot relay",
	  .ret = true, .cnt = 3, .ptr = 2, .port = 3, .at = 1, .val = 3,
	  .want = IB_SMI_DISCARD, .want_ptr = 2 },

	/*
	 * C14-13 case 3: pointer 1, the near end of the directed part:
	 * pointer to 0.  A permissive DrSLID means the SM is right there;
	 * otherwise a LID-routed part leads back to it, switches only.
	 */
	{ .desc = "C14-13.3 CA, DrSLID permissive",
	  .ret = true, .cnt = 3, .ptr = 1, .slid_p = true, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-13.3 CA, DrSLID routable",
	  .ret = true, .cnt = 3, .ptr = 1, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },
	{ .desc = "C14-13.3 switch, DrSLID routable",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 1, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-13.3 DrDLID does not matter returning",
	  .ret = true, .cnt = 3, .ptr = 1, .dlid_p = true, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },
	{ .desc = "C14-13.3 hop_cnt 0, ptr 1, DrSLID permissive",
	  .ret = true, .cnt = 0, .ptr = 1, .slid_p = true, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-13.3 hop_cnt 0, ptr 1, CA, DrSLID routable",
	  .ret = true, .cnt = 0, .ptr = 1, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },

	/* C14-13 case 4: pointer 0, home at the SM, left as it is. */
	{ .desc = "C14-13.4 CA, ptr 0",
	  .ret = true, .cnt = 3, .ptr = 0, .port = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },

	/* C14-13 case 5: any other pointer is dropped, untouched. */
	{ .desc = "C14-13.5 ptr hop_cnt+2",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 5, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 5 },
	{ .desc = "C14-13.5 ptr 255",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 255, .port = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 255 },
	{ .desc = "C14-13.5 hop_cnt 0, ptr 2",
	  .ret = true, .sw = true, .cnt = 0, .ptr = 2, .slid_p = true,
	  .port = 1, .want = IB_SMI_DISCARD, .want_ptr = 2 },
};

KUNIT_ARRAY_PARAM_DESC(smi_send, smi_send_steps, desc);

static void smi_send_step_test(struct kunit *test)
{
	smi_check_step(test, test->param_value, false);
}

/* ------------------------------------------------------------------
 * Receiving (14.2.2.3): smi_handle_dr_smp_recv()
 */

static const struct smi_step smi_recv_steps[] = {
	/* C14-6 */
	{ .desc = "C14-6 outbound hop_cnt 64 dropped, nothing noted",
	  .sw = true, .cnt = IB_SMP_MAX_PATH_HOPS, .ptr = 1, .port = 3,
	  .ports = SW_PORTS, .at = 2, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-6 returning hop_cnt 64 dropped",
	  .ret = true, .sw = true, .cnt = IB_SMP_MAX_PATH_HOPS, .ptr = 2,
	  .port = 3, .ports = SW_PORTS, .at = 1, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 2 },

	/* C14-9 case 1: pointer still 0, the sender did not move it. */
	{ .desc = "C14-9.1 switch gets ptr 0",
	  .sw = true, .cnt = 3, .ptr = 0, .port = 3, .ports = SW_PORTS,
	  .at = 1, .val = 3, .want = IB_SMI_DISCARD, .want_ptr = 0 },
	{ .desc = "C14-9.1 CA gets ptr 0",
	  .cnt = 3, .ptr = 0, .port = 1, .ports = CA_PORTS, .at = 1, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },

	/*
	 * C14-9 case 2: a switch in the middle sets ReturnPath[pointer]
	 * to the port it came in on and checks that the next hop,
	 * InitialPath[pointer + 1], is one of its ports (0..port count);
	 * the pointer moves on sending.  A CA drops it, noting nothing.
	 */
	{ .desc = "C14-9.2 switch at ptr 1 notes the ingress port",
	  .sw = true, .cnt = 3, .ptr = 1, .port = 3, .ports = SW_PORTS,
	  .at = 2, .val = 5, .want = IB_SMI_HANDLE, .want_ptr = 1,
	  .want_rp = 1 },
	{ .desc = "C14-9.2 switch at ptr hop_cnt-1, next port = port count",
	  .sw = true, .cnt = 3, .ptr = 2, .port = 3, .ports = SW_PORTS,
	  .at = 3, .val = SW_PORTS, .want = IB_SMI_HANDLE, .want_ptr = 2,
	  .want_rp = 2 },
	{ .desc = "C14-9.2 next port = port count + 1 dropped (noted)",
	  .sw = true, .cnt = 3, .ptr = 1, .port = 3, .ports = SW_PORTS,
	  .at = 2, .val = SW_PORTS + 1, .want = IB_SMI_DISCARD, .want_ptr = 1,
	  .want_rp = 1 },
	{ .desc = "C14-9.2 next port 0 (switch management port)",
	  .sw = true, .cnt = 3, .ptr = 1, .port = 4, .ports = SW_PORTS,
	  .at = 2, .val = 0, .want = IB_SMI_HANDLE, .want_ptr = 1,
	  .want_rp = 1 },
	{ .desc = "C14-9.2 CA in the middle dropped, nothing noted",
	  .cnt = 3, .ptr = 1, .port = 1, .ports = CA_PORTS, .at = 2, .val = 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-9.2 63 hops, switch at ptr 62",
	  .sw = true, .cnt = MAX_HOPS, .ptr = 62, .port = 7, .ports = SW_PORTS,
	  .at = 63, .val = 1, .want = IB_SMI_HANDLE, .want_ptr = 62,
	  .want_rp = 62 },

	/*
	 * C14-9 case 3: pointer == hop count: ReturnPath[pointer] is the
	 * ingress port (when there was a hop at all); a permissive DrDLID
	 * ends it here, a routable one needs a switch.
	 */
	{ .desc = "C14-9.3 CA target, DrDLID permissive",
	  .cnt = 3, .ptr = 3, .dlid_p = true, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 3, .want_rp = 3 },
	{ .desc = "C14-9.3 CA, DrDLID routable dropped (noted)",
	  .cnt = 3, .ptr = 3, .port = 2, .ports = CA_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 3, .want_rp = 3 },
	{ .desc = "C14-9.3 switch, DrDLID routable",
	  .sw = true, .cnt = 3, .ptr = 3, .port = 6, .ports = SW_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 3, .want_rp = 3 },
	{ .desc = "C14-9.3 hop_cnt 0, CA, DrDLID permissive, nothing noted",
	  .cnt = 0, .ptr = 0, .dlid_p = true, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-9.3 hop_cnt 0, CA, DrDLID routable",
	  .cnt = 0, .ptr = 0, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 0 },
	{ .desc = "C14-9.3 63 hops, switch at ptr 63",
	  .sw = true, .cnt = MAX_HOPS, .ptr = MAX_HOPS, .port = 8,
	  .ports = SW_PORTS, .want = IB_SMI_HANDLE, .want_ptr = MAX_HOPS,
	  .want_rp = MAX_HOPS },

	/* C14-9 case 4: pointer == hop count + 1, came LID-routed: for us. */
	{ .desc = "C14-9.4 CA, ptr hop_cnt+1",
	  .cnt = 3, .ptr = 4, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 4 },
	{ .desc = "C14-9.4 hop_cnt 0, ptr 1",
	  .cnt = 0, .ptr = 1, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-9.4 63 hops, ptr 64",
	  .sw = true, .cnt = MAX_HOPS, .ptr = 64, .port = 1, .ports = SW_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 64 },

	/* C14-9 case 5 */
	{ .desc = "C14-9.5 ptr hop_cnt+2",
	  .sw = true, .cnt = 3, .ptr = 5, .port = 1, .ports = SW_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 5 },
	{ .desc = "C14-9.5 ptr 255",
	  .cnt = 3, .ptr = 255, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 255 },

	/*
	 * C14-13 case 1: pointer == hop count + 1: the SMP came back over
	 * the LID-routed part to the far end of the directed part.  The
	 * pointer goes to hop count and it must have arrived on
	 * ReturnPath[hop count].
	 */
	{ .desc = "C14-13.1 switch, arrived on return_path[hop_cnt]",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 4, .port = 2,
	  .ports = SW_PORTS, .at = 3, .val = 2,
	  .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-13.1 switch, arrived on another port",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 4, .port = 2,
	  .ports = SW_PORTS, .at = 3, .val = 6,
	  .want = IB_SMI_DISCARD, .want_ptr = 3 },
	{ .desc = "C14-13.1 CA, arrived on return_path[hop_cnt]",
	  .ret = true, .cnt = 3, .ptr = 4, .port = 1, .ports = CA_PORTS,
	  .at = 3, .val = 1, .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-13.1 63 hops, ptr 64",
	  .ret = true, .sw = true, .cnt = MAX_HOPS, .ptr = 64, .port = 5,
	  .ports = SW_PORTS, .at = 63, .val = 5,
	  .want = IB_SMI_HANDLE, .want_ptr = 63 },

	/*
	 * C14-13 case 2: 2 <= pointer <= hop count: a switch checks that
	 * the next hop back, ReturnPath[pointer - 1], is one of its ports;
	 * the pointer moves on sending.  A CA drops it.
	 */
	{ .desc = "C14-13.2 switch at ptr hop_cnt, next port = port count",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 3, .port = 1,
	  .ports = SW_PORTS, .at = 2, .val = SW_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 3 },
	{ .desc = "C14-13.2 switch at ptr 2",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 2, .port = 1,
	  .ports = SW_PORTS, .at = 1, .val = 1,
	  .want = IB_SMI_HANDLE, .want_ptr = 2 },
	{ .desc = "C14-13.2 next port = port count + 1 dropped",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 3, .port = 1,
	  .ports = SW_PORTS, .at = 2, .val = SW_PORTS + 1,
	  .want = IB_SMI_DISCARD, .want_ptr = 3 },
	{ .desc = "C14-13.2 next port 0 (switch management port)",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 2, .port = 1,
	  .ports = SW_PORTS, .at = 1, .val = 0,
	  .want = IB_SMI_HANDLE, .want_ptr = 2 },
	{ .desc = "C14-13.2 CA in the middle dropped",
	  .ret = true, .cnt = 3, .ptr = 2, .port = 1, .ports = CA_PORTS,
	  .at = 1, .val = 1, .want = IB_SMI_DISCARD, .want_ptr = 2 },

	/*
	 * C14-13 case 3: pointer 1.  A permissive DrSLID: the SM is here,
	 * the pointer goes to 0.  Otherwise a switch sends it on
	 * LID-routed (pointer moved on sending) and a CA drops it.
	 */
	{ .desc = "C14-13.3 CA, DrSLID permissive",
	  .ret = true, .cnt = 3, .ptr = 1, .slid_p = true, .port = 1,
	  .ports = CA_PORTS, .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-13.3 switch, DrSLID permissive",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 1, .slid_p = true,
	  .port = 1, .ports = SW_PORTS, .want = IB_SMI_HANDLE, .want_ptr = 0 },
	{ .desc = "C14-13.3 switch, DrSLID routable",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 1, .port = 1,
	  .ports = SW_PORTS, .want = IB_SMI_HANDLE, .want_ptr = 1 },
	{ .desc = "C14-13.3 CA, DrSLID routable",
	  .ret = true, .cnt = 3, .ptr = 1, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 1 },
	{ .desc = "C14-13.3 hop_cnt 0, ptr 1, DrSLID permissive",
	  .ret = true, .cnt = 0, .ptr = 1, .slid_p = true, .port = 1,
	  .ports = CA_PORTS, .want = IB_SMI_HANDLE, .want_ptr = 0 },

	/* C14-13 case 4: pointer 0: for the SM. */
	{ .desc = "C14-13.4 ptr 0",
	  .ret = true, .cnt = 3, .ptr = 0, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_HANDLE, .want_ptr = 0 },

	/* C14-13 case 5 */
	{ .desc = "C14-13.5 ptr hop_cnt+2",
	  .ret = true, .sw = true, .cnt = 3, .ptr = 5, .port = 1,
	  .ports = SW_PORTS, .want = IB_SMI_DISCARD, .want_ptr = 5 },
	{ .desc = "C14-13.5 ptr 255",
	  .ret = true, .cnt = 3, .ptr = 255, .port = 1, .ports = CA_PORTS,
	  .want = IB_SMI_DISCARD, .want_ptr = 255 },
};

KUNIT_ARRAY_PARAM_DESC(smi_recv, smi_recv_steps, desc);

static void smi_recv_step_test(struct kunit *test)
{
	smi_check_step(test, test->param_value, true);
}

/* ------------------------------------------------------------------
 * The forward decision: smi_check_forward_dr_smp()
 */

struct smi_fwd {
	const char *desc;
	bool ret;
	u8 cnt;
	u8 ptr;
	bool dlid_p;
	bool slid_p;
	enum smi_forward_action want;
};

static const struct smi_fwd smi_fwd_cases[] = {
	/* C14-9 case 2: inside the directed part a switch relays it. */
	{ "C14-9.2 ptr 1 forwarded", false, 3, 1, true, true, IB_SMI_FORWARD },
	{ "C14-9.2 ptr hop_cnt-1 forwarded", false, 3, 2, false, false,
	  IB_SMI_FORWARD },
	{ "C14-9.2 63 hops, ptr 62 forwarded", false, MAX_HOPS, 62, true,
	  true, IB_SMI_FORWARD },
	/*
	 * C14-9 case 3: at the end; a permissive DrDLID: the send step
	 * takes it past the end to the local SMA; a routable one: the
	 * local agents send it on LID-routed.
	 */
	{ "C14-9.3 DrDLID permissive: send step", false, 3, 3, true, false,
	  IB_SMI_SEND },
	{ "C14-9.3 DrDLID routable: local", false, 3, 3, false, true,
	  IB_SMI_LOCAL },
	{ "C14-9.3 hop_cnt 0, DrDLID permissive", false, 0, 0, true, true,
	  IB_SMI_SEND },
	{ "C14-9.3 hop_cnt 0, DrDLID routable", false, 0, 0, false, false,
	  IB_SMI_LOCAL },
	{ "C14-9.3 63 hops, ptr 63, DrDLID permissive", false, MAX_HOPS,
	  MAX_HOPS, true, false, IB_SMI_SEND },
	/* C14-9 case 4: past the end: through the send step to the SMA. */
	{ "C14-9.4 ptr hop_cnt+1", false, 3, 4, false, false, IB_SMI_SEND },
	{ "C14-9.4 63 hops, ptr 64", false, MAX_HOPS, 64, true, true,
	  IB_SMI_SEND },
	/* Pointers the receive step drops never forward. */
	{ "C14-9.1 ptr 0 is not forwarded", false, 3, 0, true, true,
	  IB_SMI_LOCAL },
	{ "C14-9.5 ptr hop_cnt+2 is not forwarded", false, 3, 5, true, true,
	  IB_SMI_LOCAL },

	/* C14-13 case 2: 2 <= pointer <= hop count: a switch relays it. */
	{ "C14-13.2 ptr hop_cnt forwarded", true, 3, 3, true, true,
	  IB_SMI_FORWARD },
	{ "C14-13.2 ptr 2 forwarded", true, 3, 2, false, false,
	  IB_SMI_FORWARD },
	/*
	 * C14-13 case 3: pointer 1 (left there by the receive step only
	 * when DrSLID is routable): the send step takes it on.
	 */
	{ "C14-13.3 ptr 1, DrSLID routable: send step", true, 3, 1, true,
	  false, IB_SMI_SEND },
	{ "C14-13.3 ptr 1, DrSLID permissive: local", true, 3, 1, false,
	  true, IB_SMI_LOCAL },
	{ "C14-13.3 hop_cnt 0, ptr 1, DrSLID routable", true, 0, 1, false,
	  false, IB_SMI_SEND },
	/* C14-13 case 4: home: local. */
	{ "C14-13.4 ptr 0: local", true, 3, 0, false, false, IB_SMI_LOCAL },
	/* Not moved by a receive step (case 1 moves it): local. */
	{ "C14-13.1 ptr hop_cnt+1 is not forwarded", true, 3, 4, false, false,
	  IB_SMI_LOCAL },
	{ "C14-13.5 ptr hop_cnt+2 is not forwarded", true, 3, 5, false, false,
	  IB_SMI_LOCAL },
};

KUNIT_ARRAY_PARAM_DESC(smi_fwd, smi_fwd_cases, desc);

static void smi_forward_test(struct kunit *test)
{
	const struct smi_fwd *c = test->param_value;
	struct ib_smp smp, before;

	smi_build(&smp, c->ret, c->cnt, c->ptr, c->dlid_p, c->slid_p);
	before = smp;
	KUNIT_EXPECT_EQ(test, smi_check_forward_dr_smp(&smp), c->want);
	/* Only a decision: the SMP is not touched. */
	KUNIT_EXPECT_MEMEQ(test, &smp, &before, sizeof(smp));
}

/* ------------------------------------------------------------------
 * smi_get_fwd_port()
 */

static void smi_fill_paths(struct ib_smp *smp)
{
	int i;

	/* Entry i of each path holds a value telling which entry it is. */
	for (i = 0; i < IB_SMP_MAX_PATH_HOPS; i++) {
		smp->initial_path[i] = 100 + i;
		smp->return_path[i] = i;
	}
}

/* Outbound: the next hop is InitialPath[pointer + 1]. */
static void smi_fwd_port_outbound(struct kunit *test)
{
	struct ib_smp smp, before;

	smi_build(&smp, false, 3, 1, true, true);
	smi_fill_paths(&smp);
	before = smp;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 102);
	smp.hop_ptr = 2;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 103);

	/* 63 hops: the last relay, at pointer 62, uses entry 63. */
	smp.hop_cnt = MAX_HOPS;
	smp.hop_ptr = 62;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 100 + 63);

	/* No entry 64 (or 256): refused rather than read past the path. */
	smp.hop_ptr = MAX_HOPS;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), -EINVAL);
	smp.hop_ptr = 255;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), -EINVAL);

	smp.hop_cnt = before.hop_cnt;
	smp.hop_ptr = before.hop_ptr;
	KUNIT_EXPECT_MEMEQ(test, &smp, &before, sizeof(smp));
}

/* Returning: the next hop back is ReturnPath[pointer - 1]. */
static void smi_fwd_port_returning(struct kunit *test)
{
	struct ib_smp smp, before;

	smi_build(&smp, true, 3, 3, true, true);
	smi_fill_paths(&smp);
	before = smp;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 2);
	smp.hop_ptr = 2;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 1);

	/* 63 hops: a pointer of 64 uses entry 63. */
	smp.hop_cnt = MAX_HOPS;
	smp.hop_ptr = 64;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 63);

	/* No entry -1 or 64: refused. */
	smp.hop_ptr = 0;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), -EINVAL);
	smp.hop_ptr = 65;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), -EINVAL);

	smp.hop_cnt = before.hop_cnt;
	smp.hop_ptr = before.hop_ptr;
	KUNIT_EXPECT_MEMEQ(test, &smp, &before, sizeof(smp));
}

/* The D bit alone picks the path. */
static void smi_fwd_port_direction(struct kunit *test)
{
	struct ib_smp smp;

	smi_build(&smp, false, 3, 2, true, true);
	smi_fill_paths(&smp);
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 103);
	smp.status = IB_SMP_DIRECTION;
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 1);
	/* Other status bits do not make it returning. */
	smp.status = cpu_to_be16(0x7fff);
	KUNIT_EXPECT_EQ(test, smi_get_fwd_port(&smp), 103);
}

/* ------------------------------------------------------------------
 * smi_check_local_smp(), smi_check_local_returning_smp()
 */

static int smi_test_process_mad(struct ib_device *device, int flags,
				u32 port_num, const struct ib_wc *in_wc,
				const struct ib_grh *in_grh,
				const struct ib_mad *in_mad,
				struct ib_mad *out_mad, size_t *out_mad_size,
				u16 *out_mad_pkey_index)
{
	return IB_MAD_RESULT_FAILURE;
}

/* A bare device: the checks only look at whether process_mad is set. */
static struct ib_device *smi_test_device(struct kunit *test, bool has_mad)
{
	struct ib_device *dev;

	dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	if (has_mad)
		dev->ops.process_mad = smi_test_process_mad;
	return dev;
}

/*
 * Outbound: only pointer == hop count + 1 (C14-9 case 4, where case 3's
 * send step leaves it) is for the local SMA, and only a device with
 * process_mad has one.
 */
static void smi_local_outbound(struct kunit *test)
{
	struct ib_device *mad = smi_test_device(test, true);
	struct ib_device *none = smi_test_device(test, false);
	struct ib_smp smp;

	smi_build(&smp, false, 3, 4, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, none), IB_SMI_DISCARD);

	/* hop_cnt 0: to itself, pointer 1. */
	smi_build(&smp, false, 0, 1, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, none), IB_SMI_DISCARD);

	/* 63 hops, pointer 64. */
	smi_build(&smp, false, MAX_HOPS, 64, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_HANDLE);

	/* Not yet at the end, at the end before the send step, beyond. */
	smi_build(&smp, false, 3, 0, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_DISCARD);
	smp.hop_ptr = 2;
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_DISCARD);
	smp.hop_ptr = 3;
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_DISCARD);
	smp.hop_ptr = 5;
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_DISCARD);

	/* A returning SMP is never for the SMA by this check. */
	smi_build(&smp, true, 3, 4, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, mad), IB_SMI_DISCARD);
}

/*
 * Returning: only pointer 0 (C14-13 case 4, where case 3's send step
 * leaves it) is for the local SM, again only with process_mad.
 */
static void smi_local_returning(struct kunit *test)
{
	struct ib_device *mad = smi_test_device(test, true);
	struct ib_device *none = smi_test_device(test, false);
	struct ib_smp smp;

	smi_build(&smp, true, 3, 0, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, none),
			IB_SMI_DISCARD);

	smi_build(&smp, true, 0, 0, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_HANDLE);

	smp.hop_ptr = 1;
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_DISCARD);
	smi_build(&smp, true, 3, 2, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_DISCARD);
	smp.hop_ptr = 4;
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_DISCARD);

	/* An outbound SMP at pointer 0 is a fresh request, not a return. */
	smi_build(&smp, false, 3, 0, true, true);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, mad),
			IB_SMI_DISCARD);
}

/* ------------------------------------------------------------------
 * Whole journeys, each node doing what the MAD layer does with it:
 * receive step, forward decision, then relay (FORWARD), send step and
 * local check (SEND), or straight to the local agents (LOCAL).
 */

/*
 * SM on CA A, port 1 -> switch S1 (in 3, out 5) -> switch S2 (in 2,
 * out 7) -> CA B, port 1; the response walks back.  DrSLID and DrDLID
 * permissive: purely directed.
 */
static void smi_journey_three_hops(struct kunit *test)
{
	struct ib_device *dev = smi_test_device(test, true);
	struct ib_smp smp;

	smi_build(&smp, false, 3, 0, true, true);
	smp.initial_path[1] = 1;
	smp.initial_path[2] = 5;
	smp.initial_path[3] = 7;

	/* A originates (C14-9.1). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 1);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, dev), IB_SMI_DISCARD);

	/* S1 relays (C14-9.2). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, true, 3, SW_PORTS),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.return_path[1], 3);
	KUNIT_ASSERT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_FORWARD);
	KUNIT_ASSERT_EQ(test, smi_get_fwd_port(&smp), 5);
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, true, 5),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);

	/* S2 relays (C14-9.2, last relay). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, true, 2, SW_PORTS),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.return_path[2], 2);
	KUNIT_ASSERT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_FORWARD);
	KUNIT_ASSERT_EQ(test, smi_get_fwd_port(&smp), 7);
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, true, 7),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 3);

	/* B is the target (C14-9.3 with a permissive DrDLID, then .4). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, false, 1, CA_PORTS),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.return_path[3], 1);
	KUNIT_ASSERT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_SEND);
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 4);
	KUNIT_ASSERT_EQ(test, smi_check_local_smp(&smp, dev), IB_SMI_HANDLE);

	/* B's SMA answers: D bit set, back by its port 1 (C14-13.1). */
	smp.method = IB_MGMT_METHOD_GET_RESP;
	smp.status |= IB_SMP_DIRECTION;
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 3);

	/* S2 relays back out of the port it took it in on (C14-13.2). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, true, 7, SW_PORTS),
			IB_SMI_HANDLE);
	KUNIT_ASSERT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_FORWARD);
	KUNIT_ASSERT_EQ(test, smi_get_fwd_port(&smp), 2);
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, true, 2),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);

	/* S1 likewise. */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, true, 5, SW_PORTS),
			IB_SMI_HANDLE);
	KUNIT_ASSERT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_FORWARD);
	KUNIT_ASSERT_EQ(test, smi_get_fwd_port(&smp), 3);
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, true, 3),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 1);

	/* A: the SM's end (C14-13.3 with a permissive DrSLID). */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, false, 1, CA_PORTS),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 0);
	KUNIT_EXPECT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_LOCAL);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, dev),
			IB_SMI_HANDLE);

	/* The path back was recorded hop by hop, the way out untouched. */
	KUNIT_EXPECT_EQ(test, smp.return_path[1], 3);
	KUNIT_EXPECT_EQ(test, smp.return_path[2], 2);
	KUNIT_EXPECT_EQ(test, smp.return_path[3], 1);
	KUNIT_EXPECT_EQ(test, smp.initial_path[1], 1);
	KUNIT_EXPECT_EQ(test, smp.initial_path[2], 5);
	KUNIT_EXPECT_EQ(test, smp.initial_path[3], 7);
	KUNIT_EXPECT_EQ(test, smp.return_path[0], RET_FILL);
	KUNIT_EXPECT_EQ(test, smp.return_path[4], RET_FILL);
}

/* hop_cnt 0: an SMP to the local SMA and its answer to the local SM. */
static void smi_journey_zero_hops(struct kunit *test)
{
	struct ib_device *dev = smi_test_device(test, true);
	struct ib_device *none = smi_test_device(test, false);
	struct ib_smp smp;

	smi_build(&smp, false, 0, 0, true, true);
	/* C14-9.3 on sending: pointer to 1, then C14-9.4: for the SMA. */
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 1);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, dev), IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smi_check_local_smp(&smp, none), IB_SMI_DISCARD);

	/* The answer: C14-13.3 on sending, pointer 0, for the SM. */
	smp.status |= IB_SMP_DIRECTION;
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 0);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, dev),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smi_check_local_returning_smp(&smp, none),
			IB_SMI_DISCARD);
}

/*
 * Directed to switch S (one hop), then LID-routed to DrDLID: S sees the
 * end of the directed part with a routable DrDLID and keeps it for its
 * agents (LOCAL); a CA in S's place drops it (C14-9.3).
 */
static void smi_journey_lid_routed_tail(struct kunit *test)
{
	struct ib_smp smp, ca;

	smi_build(&smp, false, 1, 0, false, true);
	smp.initial_path[1] = 1;
	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_send(&smp, false, 1),
			IB_SMI_HANDLE);
	ca = smp;

	KUNIT_ASSERT_EQ(test, smi_handle_dr_smp_recv(&smp, true, 4, SW_PORTS),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.return_path[1], 4);
	KUNIT_EXPECT_EQ(test, smi_check_forward_dr_smp(&smp), IB_SMI_LOCAL);
	KUNIT_EXPECT_EQ(test, smi_handle_dr_smp_send(&smp, true, 2),
			IB_SMI_HANDLE);
	KUNIT_EXPECT_EQ(test, smp.hop_ptr, 2);

	KUNIT_EXPECT_EQ(test, smi_handle_dr_smp_recv(&ca, false, 1, CA_PORTS),
			IB_SMI_DISCARD);
}

static struct kunit_case smi_cases[] = {
	KUNIT_CASE_PARAM(smi_send_step_test, smi_send_gen_params),
	KUNIT_CASE_PARAM(smi_recv_step_test, smi_recv_gen_params),
	KUNIT_CASE_PARAM(smi_forward_test, smi_fwd_gen_params),
	KUNIT_CASE(smi_fwd_port_outbound),
	KUNIT_CASE(smi_fwd_port_returning),
	KUNIT_CASE(smi_fwd_port_direction),
	KUNIT_CASE(smi_local_outbound),
	KUNIT_CASE(smi_local_returning),
	KUNIT_CASE(smi_journey_three_hops),
	KUNIT_CASE(smi_journey_zero_hops),
	KUNIT_CASE(smi_journey_lid_routed_tail),
	{}
};

static struct kunit_suite smi_suite = {
	.name = "rdma_smi",
	.test_cases = smi_cases,
};

kunit_test_suite(smi_suite);

MODULE_DESCRIPTION("KUnit tests of directed-route SMP handling");
MODULE_LICENSE("Dual BSD/GPL");
