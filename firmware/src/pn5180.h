/*
 * NXP PN5180 driver for reading stacks of ISO 15693 chips (ICODE SLIX/SLIX2), one PN5180 per zone on the
 * shared SPI bus (hardware/chip-stacks.md has the why, the wiring and the time budget).
 *
 * Host interface (PN5180 datasheet, "host interface"): every instruction is one SPI frame under NSS; BUSY
 * rises when NSS goes high and falls when the PN5180 is ready for the next frame. A read is the instruction
 * frame, then (BUSY low again) a second frame that clocks the answer out. The RF exchange a SEND_DATA
 * starts runs on its own after BUSY has fallen. The IRQ pin mirrors the enabled IRQ_STATUS bits: RX_SOF (a
 * chip's reply began) and RX_IRQ (a reception ended, good or bad). A slot nobody answers raises nothing: the
 * Mega times its no-reply window from the SEND_DATA frame (PN_NO_REPLY_US, the window the PN5180's TIMER1 would
 * be given) and, the pin still low at its end, moves to the next slot without a single register read. So an
 * empty slot, most of a 20-chip inventory's slots, costs one SPI frame (its EOF), a reply's slot seven.
 *
 * The scan is a state machine per module, stepped by the caller: each pn_scan_step does at most one SPI
 * frame and returns at once when the module is busy (BUSY high) or its exchange is still on air (IRQ pin
 * low). So the Mega steps every PN5180 in turn while all of them have their fields on and their chips
 * answering: the sweep costs about the slowest zone's air time, not the sum of them (pn_scan_* below).
 *
 * The inventory: RF on and 3 ms for the chips to power up; a 1-slot INVENTORY (an empty field answers
 * nothing: ~2 ms); if anything answered, ISO 15693 INVENTORY with 16 slots, each collided slot searched again
 * with the mask extended by its 4 bits (depth first, one bitmap of pending slots per mask level), a round
 * with a garbled reply repeated after STAY QUIET of the chips it read, until no mask is left (complete) or
 * the search must stop (uncertain / unreadable); RF off.
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
#define PN_REG_IRQ_ENABLE 0x01
#define PN_REG_IRQ_STATUS 0x02
#define PN_REG_IRQ_CLEAR 0x03
#define PN_REG_TIMER1_RELOAD 0x0C
#define PN_REG_TIMER1_CONFIG 0x0F
#define PN_REG_RX_STATUS 0x13
#define PN_REG_TX_CONFIG 0x18

/* IRQ_STATUS / IRQ_ENABLE bits. */
#define PN_IRQ_RX 0x00000001UL      /* a reception ended (its RX_STATUS says how) */
#define PN_IRQ_TX 0x00000002UL
#define PN_IRQ_IDLE 0x00000004UL
#define PN_IRQ_TIMER1 0x00001000UL  /* the no-reply window after our frame ran out: an empty slot */
#define PN_IRQ_RX_SOF 0x00004000UL  /* a reply began */
#define PN_IRQ_PIN (PN_IRQ_RX | PN_IRQ_RX_SOF) /* what raises the IRQ pin: a reply's start, a reception's end */
/* TIMER1 (not used by the scan since firmware 2.2, which times the same window on the Mega; the model still
 * has it): started by the end of our transmission, stopped by a reply's start of frame, so it fires only when
 * nobody answered: 13.56 MHz / 128 = 106 kHz ticks, 64 ticks = 604 us (t1 323 us + an SOF's 75 us + margin). */
#define PN_TIMER1_RELOAD_EMPTY_SLOT 64UL
#define PN_TIMER1_START_ON_TX_END 0x00001000UL
#define PN_TIMER1_STOP_ON_RX_SOF 0x00020000UL
#define PN_TIMER1_PRESCALE_128 0x0000000EUL /* prescaler field, bits 1-3: 2^7 */
#define PN_TIMER1_ENABLE 0x00000001UL
/* SYSTEM_CONFIG command field (bits 0-2). */
#define PN_CMD_MASK 0x00000007UL
#define PN_CMD_TRANSCEIVE 0x00000003UL
/* TX_CONFIG: SOF, EOF and data; the bits cleared to send an EOF alone (the next inventory slot). */
#define PN_TX_EOF_ONLY_AND 0xFFFFFB3FUL
#define PN_TX_FULL_FRAME_OR 0x000004C0UL
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
#define PN_LEVELS 16     /* mask levels of 4 bits: a round's mask is 0..60 bits */
#define PN_RETRIES 2     /* a round with a garbled reply is repeated this many times */
#define PN_BUSY_WAIT_MS 10 /* LOAD_RF_CONFIG takes < 1 ms, any other instruction a few us */
/* An absent module (BUSY pulled low, MISO pulled high) is told by its answers: every register reads
 * 0xFFFFFFFF. pn_init reads back IRQ_ENABLE; the scan looks at RX_STATUS after every exchange. */
#define PN_RX_WAIT_MS 8  /* SEND_DATA -> IRQ: the longest exchange (request and a reply) is ~6 ms on air */
#define PN_RF_SETTLE_MS 3 /* field on -> first request: the chips power up on unmodulated carrier */
/* The no-reply window, timed by the Mega from the SEND_DATA frame (ISO 15693 high data rate, reader to chip
 * 1 out of 4): the PN5180 starts sending (its BUSY time), SOF 75.5 us, 302 us a byte, EOF 37.8 us; then a
 * chip must begin its reply within t1 (≤ 323.3 us) and the PN5180 hear its SOF (56.6 us). 604 us is the
 * window the PN5180's TIMER1 was given for the same (t1, SOF and margin). No SOF by then: nobody answered. */
#define PN_TX_START_US 25
#define PN_TX_SOF_US 76
#define PN_TX_BYTE_US 302
#define PN_TX_EOF_US 38
#define PN_NO_REPLY_US 604

typedef enum { PN_OK = 0, PN_ABSENT, PN_BUSY_STUCK } pn_status_t;

/* A UID read (most significant byte first, as printed: E0 04 ...), reported as soon as it is read. */
typedef void (*pn_uid_fn)(uint8_t reader, const uint8_t *uid);

/* One module's scan in progress: ~200 bytes, one per PN5180 (the UIDs go to the caller as they are read,
 * only the current round's are kept, for STAY QUIET). */
typedef struct {
    uint8_t reader, limit;
    uint8_t skip_probe;                    /* set after pn_scan_begin: go straight to the 16-slot search */
    uint8_t phase, kind, next_kind;        /* where the scan is; what frame the exchange sends */
    uint8_t level, slot, attempt, stop, tx_eof, quiet_at, timed_out;
    uint16_t pending[PN_LEVELS];           /* per mask level: collided slots still to search */
    uint8_t mask[PN_UID_LEN];              /* the path: 4 bits per level, on-air order (LSB first) */
    uint8_t round_uid[16][PN_UID_LEN];     /* the UIDs read in the current round (on-air order) */
    uint8_t round_n, round_garbled;
    uint8_t rx[2 + PN_UID_LEN];
    uint32_t rx_status;
    uint8_t since;                         /* millis8() when the current wait began */
    uint8_t irq_set;                       /* the last reply's RX_IRQ is still to clear */
    uint16_t sent_at, window;              /* hal_us4() at the last SEND_DATA, its no-reply window */
    pn_uid_fn on_uid;
    /* the result */
    pn_status_t status;                    /* PN_OK unless the PN5180 stopped answering */
    uint8_t count;                         /* UIDs read with a good CRC */
    uint8_t state;                         /* ZONE_READ_COMPLETE / _UNCERTAIN / _UNREADABLE */
    uint16_t rounds, slots, collisions, garbled, timeouts;
} pn_scan_t;

/* Blocking set-up, once per module (and after a fault): the ISO 15693 RF configuration, the IRQs the scan
 * waits for, TIMER1 as the empty-slot window. */
pn_status_t pn_init(uint8_t reader);
pn_status_t pn_field(uint8_t reader, uint8_t on);

/* Start a scan of `reader` (RF on, inventory, RF off), stopping at `limit` UIDs: the number of chips this
 * reader and antenna were proven to read completely. */
void pn_scan_begin(pn_scan_t *s, uint8_t reader, uint8_t limit, pn_uid_fn on_uid);
/* Move the scan on by at most one SPI frame; never waits for the air. Returns 1 once the scan is over
 * (then `status`, `state` and `count` hold the result). */
uint8_t pn_scan_step(pn_scan_t *s);
/* The scan waits for the air (or is over): nothing for the bus to do until its IRQ. */
uint8_t pn_scan_on_air(const pn_scan_t *s);

#endif
