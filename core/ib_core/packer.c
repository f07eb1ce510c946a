// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_pack() and ib_unpack(): move the members of a C structure to and from
 * a big-endian wire header, as a table of struct ib_field says.
 *
 * A field of at most 64 bits is a bit field: its bits are read, masked and
 * written back in the smallest big-endian window that holds them, one
 * 32-bit word when the field fits in one, else the 64 bits starting at its
 * word; the bits of the window outside the field are left as they were.
 * A wider field is a byte string copied as is.  On the structure's side a
 * bit field's member is a big-endian integer of 1, 2, 4 or 8 bytes.
 */
#define pr_fmt(fmt) "ib_core: " fmt

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <rdma/ib_pack.h>

/* The bits of one field inside its big-endian window of the buffer. */
struct pack_window {
	unsigned int	byte;	/* offset of the window in the buffer */
	bool		wide;	/* 64-bit window, else 32-bit */
	unsigned int	shift;	/* of the field's least significant bit */
	u64		mask;	/* the field's bits, already shifted */
};

static bool pack_window(const struct ib_field *f, struct pack_window *w)
{
	unsigned int first = f->offset_words * 32 + f->offset_bits;
	unsigned int bit = first % 32;
	unsigned int end = bit + f->size_bits;

	if (!f->size_bits)
		return false;
	if (end > 64) {
		pr_warn_ratelimited("field %s: %d bits at bit %u do not fit in 64\n",
				    f->field_name, f->size_bits, bit);
		return false;
	}
	w->byte = first / 32 * 4;
	w->wide = end > 32;
	w->shift = (w->wide ? 64 : 32) - end;
	w->mask = GENMASK_ULL(f->size_bits - 1, 0) << w->shift;
	return true;
}

static u64 member_get(const struct ib_field *f, const void *structure)
{
	const void *p = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return get_unaligned_be16(p);
	case 4:
		return get_unaligned_be32(p);
	case 8:
		return get_unaligned_be64(p);
	}
	pr_warn_ratelimited("field %s: no %zu-byte member, packed as 0\n",
			    f->field_name, f->struct_size_bytes);
	return 0;
}

static void member_put(const struct ib_field *f, void *structure, u64 val)
{
	void *p = structure + f->struct_offset_bytes;

	switch (f->struct_size_bytes) {
	case 1:
		*(u8 *)p = val;
		return;
	case 2:
		put_unaligned_be16(val, p);
		return;
	case 4:
		put_unaligned_be32(val, p);
		return;
	case 8:
		put_unaligned_be64(val, p);
		return;
	}
	pr_warn_ratelimited("field %s: no %zu-byte member, not unpacked\n",
			    f->field_name, f->struct_size_bytes);
}

static u64 window_get(const struct pack_window *w, const void *buf)
{
	if (w->wide)
		return get_unaligned_be64(buf + w->byte);
	return get_unaligned_be32(buf + w->byte);
}

static void window_put(const struct pack_window *w, void *buf, u64 val)
{
	if (w->wide)
		put_unaligned_be64(val, buf + w->byte);
	else
		put_unaligned_be32(val, buf + w->byte);
}

/* A byte string's place in the buffer, and its length. */
static unsigned int blob_at(const struct ib_field *f, size_t *len)
{
	if (f->offset_bits % 8 || f->size_bits % 8)
		pr_warn_ratelimited("field %s: %d bits at bit %d, not whole bytes\n",
				    f->field_name, f->size_bits, f->offset_bits);
	*len = f->size_bits / 8;
	return f->offset_words * 4 + f->offset_bits / 8;
}

/**
 * ib_pack() - write the fields of a structure to a wire header
 * @desc: the fields, in any order
 * @desc_len: number of entries of @desc
 * @structure: the structure the values come from
 * @buf: the header to write
 *
 * Each bit field of @desc is written big-endian at its place in @buf, its
 * value cut to its width; the bits around it keep their value.  A reserved
 * field (no structure member) is written as zeroes; a field wider than 64
 * bits is copied byte for byte.
 *
 * Context: Any context.
 * Return: nothing.
 */
void ib_pack(const struct ib_field *desc, int desc_len, void *structure,
	     void *buf)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		struct pack_window w;
		u64 val = 0;
		size_t len;

		if (f->size_bits > 64) {
			void *to = buf + blob_at(f, &len);

			if (f->struct_size_bytes)
				memcpy(to, structure + f->struct_offset_bytes, len);
			else
				memset(to, 0, len);
			continue;
		}
		if (!pack_window(f, &w))
			continue;
		if (f->struct_size_bytes)
			val = member_get(f, structure);
		val = (window_get(&w, buf) & ~w.mask) | ((val << w.shift) & w.mask);
		window_put(&w, buf, val);
	}
}
EXPORT_SYMBOL(ib_pack);

/**
 * ib_unpack() - read the fields of a wire header into a structure
 * @desc: the fields, in any order
 * @desc_len: number of entries of @desc
 * @buf: the header to read
 * @structure: the structure to fill
 *
 * Each bit field of @desc is read from @buf and stored in its member, cut
 * to the member's size; a field wider than 64 bits is copied byte for byte.
 * Reserved fields are skipped and members no field names are not touched.
 *
 * Context: Any context.
 * Return: nothing.
 */
void ib_unpack(const struct ib_field *desc, int desc_len, void *buf,
	       void *structure)
{
	const struct ib_field *f;

	for (f = desc; f < desc + desc_len; f++) {
		struct pack_window w;
		size_t len;

		if (!f->struct_size_bytes)
			continue;
		if (f->size_bits > 64) {
			const void *from = buf + blob_at(f, &len);

			memcpy(structure + f->struct_offset_bytes, from, len);
			continue;
		}
		if (!pack_window(f, &w))
			continue;
		member_put(f, structure,
			   (window_get(&w, buf) & w.mask) >> w.shift);
	}
}
EXPORT_SYMBOL(ib_unpack);
