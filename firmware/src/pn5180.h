/*
 * NXP PN5180 driver for reading stacks of ISO 15693 chips (ICODE SLIX/SLIX2), one PN5180 per zone on the
 * shared SPI bus (hardware/chip-stacks.md has the why and the wiring).
 *
 * Host interface (PN5180 datasheet, "host interface"): every instruction is one SPI frame under NSS; the
 * host waits for BUSY low before a frame, and after it for BUSY to rise and fall again before the next
 * one. A read is the instruction frame, then (BUSY low again) a second frame that clocks the answer out.
 * BUSY comes from the hardware-access layer (hal_busy); every wait is bounded.
 *
 * The inventory: first a 1-slot INVENTORY (an empty field answers nothing: done in ~2 ms), then, if anything
 * answered, ISO 15693 INVENTORY with 16 slots, a collided slot searched again with the mask
 * extended by its 4 bits (depth first), a garbled reply retried after STAY QUIET of the chips already read
 * in that round, until no mask is left (complete) or the search must stop (uncertain / unreadable).
 */
#ifndef DEALERBOX_PN5180_H
#define DEALERBOX_PN5180_H

#include <stdint.h>

/* Instructions (host interface). */
#define PN_WRITE_REGISTER 0x00
#define PN_WRITE_REGISTER_OR_MASK 0x01
#define PN_WRITE_REGISTER_AND_MASK 0x02
#define PN_READ_REGISTER 0x04
#define PN_SEND_DATA 0x09
#define PN_READ_DATA 0x0A
#define PN_LOAD_RF_CONFIG 0x11
#define PN_RF_ON 0x16
#define PN_RF_OFF 0x17

/* Registers used. */
#define PN_REG_SYSTEM_CONFIG 0x00
#define PN_REG_IRQ_STATUS 0x02
#define PN_REG_IRQ_CLEAR 0x03
#define PN_REG_RX_STATUS 0x13
#define PN_REG_TX_CONFIG 0x18

/* IRQ_STATUS bits. */
#define PN_IRQ_RX 0x00000001UL
#define PN_IRQ_IDLE 0x00000004UL
/* RX_STATUS fields. */
#define PN_RX_BYTES_MASK 0x000001FFUL
#define PN_RX_INTEGRITY_ERROR 0x00010000UL
#define PN_RX_PROTOCOL_ERROR 0x00020000UL
#define PN_RX_COLLISION 0x00040000UL

/* RF configuration: ISO 15693, 26 kbit/s, ASK 100 % (transmitter and receiver indexes). */
#define PN_RF_ISO15693_TX 0x0D
#define PN_RF_ISO15693_RX 0x8D

/* ISO 15693 requests. */
#define ISO15693_FLAGS_INVENTORY_16 0x06 /* high data rate + inventory, 16 slots */
#define ISO15693_FLAGS_INVENTORY_1 0x26  /* the same, 1 slot: every chip answers in it (the empty-field probe) */
#define ISO15693_FLAGS_ADDRESSED 0x22    /* high data rate + addressed */
#define ISO15693_INVENTORY 0x01
#define ISO15693_STAY_QUIET 0x02

#define PN_UID_LEN 8
#define PN_MAX_TAGS 64   /* per zone and sweep: more than any stack a reader can prove */
#define PN_MASK_DEPTH 16 /* masks waiting to be searched: 4 bits per level, 60 bits at most */
#define PN_RETRIES 2     /* a round with a garbled reply is repeated this many times */

typedef enum { PN_OK = 0, PN_ABSENT, PN_BUSY_STUCK } pn_status_t;

typedef struct {
    uint8_t uid[PN_MAX_TAGS][PN_UID_LEN]; /* most significant byte first, as printed: E0 04 ... */
    uint8_t count;                        /* UIDs read with a good CRC */
    uint8_t state;                        /* ZONE_READ_COMPLETE / _UNCERTAIN / _UNREADABLE */
    uint16_t rounds, slots, collisions, garbled;
} pn_inventory_t;

pn_status_t pn_init(uint8_t reader); /* load the ISO 15693 RF configuration */
pn_status_t pn_field(uint8_t reader, uint8_t on);

/* Read every chip in the reader's field (field must be on), stopping at `limit` UIDs: the number of chips
 * this reader and antenna were proven to read completely. Returns PN_OK unless the chip stopped answering. */
pn_status_t pn_inventory(uint8_t reader, pn_inventory_t *inv, uint8_t limit);

#endif
