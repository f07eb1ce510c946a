// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The test interface of iw_cm: what its KUnit suites (tests/iwcm_kunit.c,
 * tests/iwpm_kunit.c, and rdma_cm's cma_conn suite) reach inside the
 * module, as two tables instead of one export per function.  Built only
 * into a kernel with KUnit (Kbuild: iw_cm-$(CONFIG_KUNIT)); nothing in
 * the product calls it.
 *
 * struct iwcm_test_ops reads an id's state and counters and waits for
 * the event queue.  struct iwpm_test_ops is the port-mapper client's
 * tables and request machinery (unit-tested directly), the handlers of
 * what iwpmd sends (fed messages built by the suite) and its state (the
 * registered port mapper, its ABI version, the answer timeout), which a
 * suite sets to play iwpmd and restores at exit.
 */
#include <kunit/visibility.h>

#include "iwcm.h"
#include "iwpm_util.h"

/**
 * iwcm_id_state - state of an id
 * @cm_id: the id
 *
 * Context: Any context; a lockless read.
 * Return: its enum iw_cm_state.
 */
static enum iw_cm_state iwcm_id_state(struct iw_cm_id *cm_id)
{
	return READ_ONCE(to_iwcm(cm_id)->state);
}

/**
 * iwcm_id_refused - events an id refused
 * @cm_id: the id
 *
 * Context: Any context; a lockless read.
 * Return: the count.
 */
static unsigned int iwcm_id_refused(struct iw_cm_id *cm_id)
{
	return atomic_read(&to_iwcm(cm_id)->refused);
}

/**
 * iwcm_id_refcount - references on an id
 * @cm_id: the id
 *
 * Context: Any context; a lockless read.
 * Return: the count.
 */
static unsigned int iwcm_id_refcount(struct iw_cm_id *cm_id)
{
	return refcount_read(&to_iwcm(cm_id)->refcount);
}

static int iwcm_test_ids_alive(void)
{
	return atomic_read(&iwcm_ids_alive);
}

static void iwcm_test_flush_events(void)
{
	flush_workqueue(iwcm_wq);
}

static unsigned int iwcm_test_default_backlog(void)
{
	return READ_ONCE(iwcm_default_backlog);
}

const struct iwcm_test_ops iwcm_test = {
	.id_state = iwcm_id_state,
	.id_refused = iwcm_id_refused,
	.id_refcount = iwcm_id_refcount,
	.ids_alive = iwcm_test_ids_alive,
	.flush_events = iwcm_test_flush_events,
	.default_backlog = iwcm_test_default_backlog,
};
EXPORT_SYMBOL_IF_KUNIT(iwcm_test);

const struct iwpm_test_ops iwpm_test = {
	.ulib_version = &iwpm_ulib_version,
	.timeout_ms = &iwpm_timeout_ms,
	.stats = &iwpm_stats,
	.get_user_pid = iwpm_get_user_pid,
	.set_user_pid = iwpm_set_user_pid,
	.get_registration = iwpm_get_registration,
	.set_registration = iwpm_set_registration,
	.check_registration = iwpm_check_registration,
	.valid_client = iwpm_valid_client,
	.negotiate_version = iwpm_negotiate_version,
	.flush_client = iwpm_flush_client,

	.sockaddr_valid = iwpm_sockaddr_valid,
	.compare_sockaddr = iwpm_compare_sockaddr,
	.get_mapped_addr = iwpm_get_mapped_addr,
	.mapinfo_available = iwpm_mapinfo_available,
	.mapinfo_count = iwpm_mapinfo_count,
	.insert_remote_info = iwpm_insert_remote_info,
	.add_remote_info = iwpm_add_remote_info,
	.reminfo_count = iwpm_reminfo_count,

	.get_nlmsg_seq = iwpm_get_nlmsg_seq,
	.get_nlmsg_request = iwpm_get_nlmsg_request,
	.find_nlmsg_request = iwpm_find_nlmsg_request,
	.free_nlmsg_request = iwpm_free_nlmsg_request,
	.cancel_nlmsg_request = iwpm_cancel_nlmsg_request,
	.wait_complete_req = iwpm_wait_complete_req,
	.pending_nlmsg_requests = iwpm_pending_nlmsg_requests,

	.register_pid_cb = iwpm_register_pid_cb,
	.add_mapping_cb = iwpm_add_mapping_cb,
	.add_and_query_mapping_cb = iwpm_add_and_query_mapping_cb,
	.remote_info_cb = iwpm_remote_info_cb,
	.mapping_info_cb = iwpm_mapping_info_cb,
	.ack_mapping_info_cb = iwpm_ack_mapping_info_cb,
	.mapping_error_cb = iwpm_mapping_error_cb,
	.hello_cb = iwpm_hello_cb,
};
EXPORT_SYMBOL_IF_KUNIT(iwpm_test);
