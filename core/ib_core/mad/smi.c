// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Directed-route SMPs (IBTA vol. 1 14.2.2): the hop pointer walks the
 * initial path on the way out (D bit clear) and the return path on the
 * way back (D bit set).  Each node that sends or receives such an SMP
 * checks where the pointer stands against the hop count, moves it, notes
 * the port the SMP came in on, and says whether the SMP may go on.
 *
 * The case numbers in the comments are those of the compliance
 * statements C14-9 (outbound) and C14-13 (returning), as Linux numbers
 * them:
 *
 *   1  the pointer is at the start of the directed part (the node that
 *      originates it, or that turns it round)
 *   2  the pointer is inside the directed part (a switch in the middle)
 *   3  the pointer is at the far end of the directed part
 *   4  the pointer is past the directed part: the SMP is for this node
 *   5  any other pointer is nonsense and the SMP is dropped
 *
 * The arrays are indexed 1..hop_cnt; entry 0 of each is unused.
 * Nothing here sleeps or locks: the SMP belongs to the caller.
 */
#include <linux/errno.h>
#include <linux/export.h>

#include "smi.h"

static enum smi_action smi_verdict(bool ok)
{
	return ok ? IB_SMI_HANDLE : IB_SMI_DISCARD;
}

/* C14-6: a hop count of IB_SMP_MAX_PATH_HOPS or more is never valid. */
static bool smi_hop_cnt_valid(const struct ib_smp *smp)
{
	return smp->hop_cnt < IB_SMP_MAX_PATH_HOPS;
}

/* An outbound SMP leaves this node (C14-9). */
static enum smi_action smi_send_outbound(struct ib_smp *smp, bool is_switch,
					 u32 port_num)
{
	u8 cnt = smp->hop_cnt;
	u8 ptr = smp->hop_ptr;

	if (ptr == 0 && cnt) {
		/* 1: first hop; it must leave by the port the path names. */
		smp->hop_ptr = 1;
		return smi_verdict(smp->initial_path[1] == port_num);
	}
	if (ptr && ptr < cnt) {
		/*
		 * 2: only a switch relays; the receive step already noted
		 * the ingress port in return_path.
		 */
		if (!is_switch)
			return IB_SMI_DISCARD;
		smp->hop_ptr = ++ptr;
		return smi_verdict(smp->initial_path[ptr] == port_num);
	}
	if (ptr == cnt) {
		/*
		 * 3: the directed part ends here.  A permissive DrDLID
		 * makes this node the target; otherwise an LID-routed part
		 * follows, which only a switch can start.
		 */
		smp->hop_ptr = ptr + 1;
		return smi_verdict(is_switch || smi_dr_dlid_permissive(smp));
	}
	/* 4: already past the end, for the local SMA; 5: nonsense. */
	return smi_verdict(ptr == cnt + 1);
}

/* A returning SMP leaves this node (C14-13). */
static enum smi_action smi_send_returning(struct ib_smp *smp, bool is_switch,
					  u32 port_num)
{
	u8 cnt = smp->hop_cnt;
	u8 ptr = smp->hop_ptr;

	if (cnt && ptr == cnt + 1) {
		/* 1: the responder turns it round onto the return path. */
		smp->hop_ptr = --ptr;
		return smi_verdict(smp->return_path[ptr] == port_num);
	}
	if (ptr >= 2 && ptr <= cnt) {
		/* 2: only a switch relays it one hop further back. */
		if (!is_switch)
			return IB_SMI_DISCARD;
		smp->hop_ptr = --ptr;
		return smi_verdict(smp->return_path[ptr] == port_num);
	}
	if (ptr == 1) {
		/*
		 * 3: the directed part ends here.  With a permissive DrSLID
		 * the SM sits at this end; otherwise an LID-routed part
		 * leads back to it, which only a switch can start.
		 */
		smp->hop_ptr = 0;
		return smi_verdict(is_switch || smi_dr_slid_permissive(smp));
	}
	/* 4: back at the start, for the SM; 5: nonsense. */
	return smi_verdict(ptr == 0);
}

/* An outbound SMP arrived on @port_num (C14-9). */
static enum smi_action smi_recv_outbound(struct ib_smp *smp, bool is_switch,
					 u32 port_num, int phys_port_cnt)
{
	u8 cnt = smp->hop_cnt;
	u8 ptr = smp->hop_ptr;

	/* 1: whoever sent it should have moved the pointer off 0. */
	if (ptr == 0 && cnt)
		return IB_SMI_DISCARD;
	if (ptr && ptr < cnt) {
		/*
		 * 2: a switch in the middle notes where the SMP came in;
		 * the next hop's port must exist.  The send step moves the
		 * pointer.
		 */
		if (!is_switch)
			return IB_SMI_DISCARD;
		smp->return_path[ptr] = port_num;
		return smi_verdict(smp->initial_path[ptr + 1] <= phys_port_cnt);
	}
	if (ptr == cnt) {
		/* 3: the last directed hop; as for sending. */
		if (cnt)
			smp->return_path[ptr] = port_num;
		return smi_verdict(is_switch || smi_dr_dlid_permissive(smp));
	}
	/* 4: arrived over the LID-routed part, for us; 5: nonsense. */
	return smi_verdict(ptr == cnt + 1);
}

/* A returning SMP arrived on @port_num (C14-13). */
static enum smi_action smi_recv_returning(struct ib_smp *smp, bool is_switch,
					  u32 port_num, int phys_port_cnt)
{
	u8 cnt = smp->hop_cnt;
	u8 ptr = smp->hop_ptr;

	if (cnt && ptr == cnt + 1) {
		/*
		 * 1: it came back over the LID-routed part to the far end
		 * of the directed part, by the port it left from.
		 */
		smp->hop_ptr = --ptr;
		return smi_verdict(smp->return_path[ptr] == port_num);
	}
	if (ptr >= 2 && ptr <= cnt) {
		/*
		 * 2: a switch in the middle: the port it goes out of next
		 * must exist.  The send step moves the pointer.
		 */
		if (!is_switch)
			return IB_SMI_DISCARD;
		return smi_verdict(smp->return_path[ptr - 1] <= phys_port_cnt);
	}
	if (ptr == 1) {
		/*
		 * 3: the near end of the directed part.  A permissive
		 * DrSLID means the SM is here: the SMP is done, the pointer
		 * goes to 0.  Otherwise a switch sends it on LID-routed
		 * (its send step moves the pointer).
		 */
		if (smi_dr_slid_permissive(smp)) {
			smp->hop_ptr = 0;
			return IB_SMI_HANDLE;
		}
		return smi_verdict(is_switch);
	}
	/* 4: already home, for the SM; 5: nonsense. */
	return smi_verdict(ptr == 0);
}

/**
 * smi_handle_dr_smp_send - step a directed-route SMP before it goes out
 * @smp: the SMP, sent by a local agent or relayed by a switch
 * @is_switch: whether this node is a switch
 * @port_num: the port the SMP is about to leave by
 *
 * Moves the hop pointer one hop along the path in the SMP's direction
 * and checks that @port_num is the port the path names for that hop.
 * When the SMP is already at or past its destination, moves nothing and
 * only says whether it may be delivered.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: IB_SMI_HANDLE when the SMP may go on, IB_SMI_DISCARD when it
 * must be dropped (hop_ptr may have moved all the same).
 */
enum smi_action smi_handle_dr_smp_send(struct ib_smp *smp, bool is_switch,
				       u32 port_num)
{
	if (!smi_hop_cnt_valid(smp))
		return IB_SMI_DISCARD;
	if (ib_get_smp_direction(smp))
		return smi_send_returning(smp, is_switch, port_num);
	return smi_send_outbound(smp, is_switch, port_num);
}
EXPORT_SYMBOL_GPL(smi_handle_dr_smp_send);

/**
 * smi_handle_dr_smp_recv - check a directed-route SMP that came in
 * @smp: the received SMP
 * @is_switch: whether this node is a switch
 * @port_num: the port it arrived on
 * @phys_port_cnt: the number of ports of the device
 *
 * Checks the hop pointer against the hop count, records @port_num in
 * the return path of an outbound SMP, and, for a switch relaying it,
 * checks that the next hop's port exists.  The hop pointer moves only
 * where the SMP ends here (a returning SMP reaching its turning point
 * or, with a permissive DrSLID, the SM's end).
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: IB_SMI_HANDLE when the SMP is to be processed further (see
 * smi_check_forward_dr_smp()), IB_SMI_DISCARD when it must be dropped.
 */
enum smi_action smi_handle_dr_smp_recv(struct ib_smp *smp, bool is_switch,
				       u32 port_num, int phys_port_cnt)
{
	if (!smi_hop_cnt_valid(smp))
		return IB_SMI_DISCARD;
	if (ib_get_smp_direction(smp))
		return smi_recv_returning(smp, is_switch, port_num,
					  phys_port_cnt);
	return smi_recv_outbound(smp, is_switch, port_num, phys_port_cnt);
}
EXPORT_SYMBOL_GPL(smi_handle_dr_smp_recv);

/**
 * smi_check_forward_dr_smp - where a received directed-route SMP goes
 * @smp: the SMP, after smi_handle_dr_smp_recv() let it through
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: IB_SMI_FORWARD when the pointer is inside the directed part
 * (a switch relays it out of smi_get_fwd_port()); IB_SMI_SEND when it
 * has to pass through smi_handle_dr_smp_send() on this node first (the
 * far end of an outbound SMP with a permissive DrDLID, an outbound SMP
 * past the directed part, the near end of a returning SMP whose DrSLID
 * is not permissive); IB_SMI_LOCAL otherwise (it is for the local
 * agents as it stands).
 */
enum smi_forward_action smi_check_forward_dr_smp(struct ib_smp *smp)
{
	u8 cnt = smp->hop_cnt;
	u8 ptr = smp->hop_ptr;

	if (ib_get_smp_direction(smp)) {
		/* C14-13 case 2 */
		if (ptr >= 2 && ptr <= cnt)
			return IB_SMI_FORWARD;
		/* C14-13 case 3 */
		if (ptr == 1)
			return smi_dr_slid_permissive(smp) ? IB_SMI_LOCAL :
							     IB_SMI_SEND;
		return IB_SMI_LOCAL;
	}

	/* C14-9 case 2 */
	if (ptr && ptr < cnt)
		return IB_SMI_FORWARD;
	/* C14-9 case 3 */
	if (ptr == cnt)
		return smi_dr_dlid_permissive(smp) ? IB_SMI_SEND : IB_SMI_LOCAL;
	/* C14-9 case 4 */
	if (ptr == cnt + 1)
		return IB_SMI_SEND;
	return IB_SMI_LOCAL;
}
EXPORT_SYMBOL_GPL(smi_check_forward_dr_smp);

/**
 * smi_get_fwd_port - the port a switch relays a directed-route SMP to
 * @smp: the SMP, for which smi_check_forward_dr_smp() said IB_SMI_FORWARD
 *
 * The next entry of the initial path for an outbound SMP, the previous
 * entry of the return path for a returning one.
 *
 * Context: Any context; takes no lock and does not sleep.
 *
 * Return: the port number, or -EINVAL when the hop pointer would index
 * outside the path (never the case for an SMP to be forwarded).
 */
int smi_get_fwd_port(struct ib_smp *smp)
{
	unsigned int ptr = smp->hop_ptr;

	if (ib_get_smp_direction(smp)) {
		if (ptr == 0 || ptr > IB_SMP_MAX_PATH_HOPS)
			return -EINVAL;
		return smp->return_path[ptr - 1];
	}
	if (ptr + 1 >= IB_SMP_MAX_PATH_HOPS)
		return -EINVAL;
	return smp->initial_path[ptr + 1];
}
EXPORT_SYMBOL_GPL(smi_get_fwd_port);
