// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma_fake_hca: user contexts of a device described with user_mmap.
 * Each context has FAKE_HCA_UMAP_PAGES pages standing for device memory
 * (a hardware driver's doorbell or BAR pages), filled with
 * FAKE_HCA_UMAP_BYTE and offered at page offset 0; the mmap op maps them
 * with rdma_user_mmap_io(), so ib_uverbs's disassociation must zap them.
 */

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "fake_hca_priv.h"

/* The allocation order of a context's pages. */
#define FAKE_HCA_UMAP_ORDER	get_order(FAKE_HCA_UMAP_PAGES * PAGE_SIZE)

/* The "device memory" of a context, freed when its entry goes. */
struct fake_hca_umap {
	struct rdma_user_mmap_entry	rdma;
	struct page			*pages;
};

struct fake_hca_ucontext {
	struct ib_ucontext	ibuc;
	struct fake_hca_umap	*umap;
};

static int fake_hca_alloc_ucontext(struct ib_ucontext *ibuc,
				   struct ib_udata *udata)
{
	struct fake_hca_ucontext *uc = container_of(ibuc,
						    struct fake_hca_ucontext,
						    ibuc);
	struct fake_hca_umap *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int ret;

	if (!m)
		return -ENOMEM;
	m->pages = alloc_pages(GFP_KERNEL, FAKE_HCA_UMAP_ORDER);
	if (!m->pages) {
		kfree(m);
		return -ENOMEM;
	}
	memset(page_address(m->pages), FAKE_HCA_UMAP_BYTE,
	       FAKE_HCA_UMAP_PAGES * PAGE_SIZE);
	ret = rdma_user_mmap_entry_insert_exact(ibuc, &m->rdma,
						FAKE_HCA_UMAP_PAGES *
						PAGE_SIZE, 0);
	if (ret) {
		__free_pages(m->pages, FAKE_HCA_UMAP_ORDER);
		kfree(m);
		return ret;
	}
	uc->umap = m;
	return 0;
}

static void fake_hca_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct fake_hca_ucontext *uc = container_of(ibuc,
						    struct fake_hca_ucontext,
						    ibuc);

	rdma_user_mmap_entry_remove(&uc->umap->rdma);
}

static int fake_hca_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *e = rdma_user_mmap_entry_get(ibuc, vma);
	struct fake_hca_umap *m;
	int ret;

	if (!e)
		return -EINVAL;
	m = container_of(e, struct fake_hca_umap, rdma);
	ret = rdma_user_mmap_io(ibuc, vma, page_to_pfn(m->pages),
				FAKE_HCA_UMAP_PAGES * PAGE_SIZE,
				vma->vm_page_prot, e);
	rdma_user_mmap_entry_put(e);
	return ret;
}

static void fake_hca_mmap_free(struct rdma_user_mmap_entry *e)
{
	struct fake_hca_umap *m = container_of(e, struct fake_hca_umap, rdma);

	__free_pages(m->pages, FAKE_HCA_UMAP_ORDER);
	kfree(m);
}

const struct ib_device_ops fake_hca_user_ops = {
	.alloc_ucontext = fake_hca_alloc_ucontext,
	.dealloc_ucontext = fake_hca_dealloc_ucontext,
	.mmap = fake_hca_mmap,
	.mmap_free = fake_hca_mmap_free,
	INIT_RDMA_OBJ_SIZE(ib_ucontext, fake_hca_ucontext, ibuc),
};
