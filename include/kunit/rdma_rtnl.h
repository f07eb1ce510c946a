/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal rtnetlink client for KUnit suites (in rdma_fake_hca,
 * tools/testing/rdma/fake_hca/fake_hca_rtnl.c): a suite changes the
 * network the way "ip" would, through a kernel NETLINK_ROUTE socket of a
 * namespace, so that every notifier sees what it sees on a real system.
 *
 * Each call sends one request and returns the error of its
 * acknowledgment (0 for success) without asserting anything, so that a
 * case's end may use it too.  IPv6 addresses are added without duplicate
 * address detection.  Process context only; the calls take RTNL through
 * rtnetlink, so the caller must not hold it.
 */
#ifndef KUNIT_RDMA_RTNL_H
#define KUNIT_RDMA_RTNL_H

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>

struct kunit;
struct kt_rtnl;

/* A socket of @net, closed when the test ends; NULL on failure. */
struct kt_rtnl *kt_rtnl_open(struct kunit *test, struct net *net);

/*
 * "ip address add|del ADDR/PREFIXLEN dev DEV" (DEV by @ifindex, so that
 * it may be called after DEV went): @type RTM_NEWADDR or RTM_DELADDR;
 * IPv4 or IPv6 by the form of @addr.
 */
int kt_rtnl_addr(struct kt_rtnl *c, u16 type, int ifindex, const char *addr,
		 u8 prefixlen);

/* "ip neigh replace ADDR lladdr MAC dev DEV nud permanent" */
int kt_rtnl_neigh(struct kt_rtnl *c, int ifindex, const char *addr,
		  const u8 *mac);

/* The same with a link-layer address of @len bytes (IPoIB: 20) */
int kt_rtnl_neigh_ll(struct kt_rtnl *c, int ifindex, const char *addr,
		     const u8 *lladdr, unsigned int len);

/*
 * "ip link add link LOWER name NAME type vlan id ID", then up: *@ifindex
 * is the VLAN's.
 */
int kt_rtnl_add_vlan(struct kt_rtnl *c, struct net_device *lower,
		     const char *name, u16 id, int *ifindex);

/* "ip link del" of the device with @ifindex */
int kt_rtnl_del_link(struct kt_rtnl *c, int ifindex);

#endif /* KUNIT_RDMA_RTNL_H */
