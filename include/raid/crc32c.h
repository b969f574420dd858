/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAID core: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum of the controller's cache journal records.
 *
 * Both functions update the CRC register with no inversion of their own:
 * start from ~0, feed the pieces in order, finish with ~ (the standard
 * CRC-32C of "123456789" is then 0xE3069283).  So the value does not
 * depend on how the data is split.  raid_crc32c() runs on ISA-L's
 * crc32_iscsi() (the CPU's CRC32 instruction) when the build has ISA-L,
 * else on raid_crc32c_ref(); both give the same values, so a journal
 * written by one build is read by the other.
 */
#ifndef RAID_CRC32C_H
#define RAID_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t raid_crc32c(uint32_t crc, const void *buf, size_t len);
/* The table-driven reference: a byte at a time. */
uint32_t raid_crc32c_ref(uint32_t crc, const void *buf, size_t len);

#endif
