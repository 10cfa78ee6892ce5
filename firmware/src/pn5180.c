/* PN5180 driver and ISO 15693 stack inventory: see pn5180.h. */
#include "pn5180.h"

#include <string.h>

#include "hal.h"
#include "protocol.h"

#define BUSY_WAIT_MS 10 /* LOAD_RF_CONFIG takes < 1 ms; a request and its slot's reply < 7 ms on air */

/* Wait until BUSY is `level`; 0 if it never got there. */
static uint8_t wait_busy(uint8_t reader, uint8_t level)
{
    uint32_t t0 = millis();
    while (hal_busy(reader) != level)
        if (millis() - t0 > BUSY_WAIT_MS)
            return 0;
    return 1;
}

/* One SPI frame under NSS: `out` is sent; if `in` is given, `n` answer bytes are clocked out instead. */
static pn_status_t frame(uint8_t reader, const uint8_t *out, uint8_t *in, uint8_t n)
{
    if (!wait_busy(reader, 0))
        return PN_BUSY_STUCK;
    spi_select(reader);
    for (uint8_t i = 0; i < n; i++) {
        uint8_t b = spi_transfer(out ? out[i] : 0xFF);
        if (in)
            in[i] = b;
    }
    spi_release(reader);
    /* BUSY rises once the frame is taken; an absent chip (BUSY pulled low, MISO high) never raises it */
    if (!wait_busy(reader, 1))
        return PN_ABSENT;
    return wait_busy(reader, 0) ? PN_OK : PN_BUSY_STUCK;
}

static pn_status_t write_reg(uint8_t reader, uint8_t op, uint8_t reg, uint32_t v)
{
    uint8_t f[6] = {op, reg, (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return frame(reader, f, 0, 6);
}

static pn_status_t read_reg(uint8_t reader, uint8_t reg, uint32_t *v)
{
    uint8_t f[2] = {PN_READ_REGISTER, reg}, a[4];
    pn_status_t st = frame(reader, f, 0, 2);
    if (st == PN_OK)
        st = frame(reader, 0, a, 4);
    *v = (uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16 | (uint32_t)a[3] << 24;
    return st;
}

/* Transceive one ISO 15693 frame (CRC added by the PN5180); len 0 sends only an EOF (next slot). */
static pn_status_t transceive(uint8_t reader, const uint8_t *data, uint8_t len)
{
    uint8_t f[2 + 16] = {PN_SEND_DATA, 0}; /* 0 valid bits in the last byte: all 8 */
    pn_status_t st = write_reg(reader, PN_WRITE_REGISTER, PN_REG_IRQ_CLEAR, 0xFFFFFFFFUL);
    if (st == PN_OK && len == 0) /* EOF only: no SOF, no data, no CRC */
        st = write_reg(reader, PN_WRITE_REGISTER_AND_MASK, PN_REG_TX_CONFIG, 0xFFFFFB3FUL);
    if (st == PN_OK) /* idle, then transceive: the receiver opens after the frame */
        st = write_reg(reader, PN_WRITE_REGISTER_AND_MASK, PN_REG_SYSTEM_CONFIG, 0xFFFFFFF8UL);
    if (st == PN_OK)
        st = write_reg(reader, PN_WRITE_REGISTER_OR_MASK, PN_REG_SYSTEM_CONFIG, 0x00000003UL);
    if (st == PN_OK) {
        if (len)
            memcpy(f + 2, data, len);
        st = frame(reader, f, 0, (uint8_t)(2 + len));
    }
    return st;
}

pn_status_t pn_init(uint8_t reader)
{
    uint8_t f[3] = {PN_LOAD_RF_CONFIG, PN_RF_ISO15693_TX, PN_RF_ISO15693_RX};
    return frame(reader, f, 0, 3);
}

pn_status_t pn_field(uint8_t reader, uint8_t on)
{
    uint8_t f[2] = {on ? PN_RF_ON : PN_RF_OFF, 0};
    return frame(reader, f, 0, 2);
}

typedef enum { SLOT_EMPTY, SLOT_UID, SLOT_COLLISION, SLOT_GARBLED } slot_t;

/* What the current slot received; a UID is stored (most significant byte first) in `uid`. */
static pn_status_t read_slot(uint8_t reader, slot_t *what, uint8_t *uid)
{
    uint32_t rx;
    pn_status_t st = read_reg(reader, PN_REG_RX_STATUS, &rx);
    if (st != PN_OK)
        return st;
    uint16_t n = (uint16_t)(rx & PN_RX_BYTES_MASK);
    if (rx & PN_RX_COLLISION)
        *what = SLOT_COLLISION;
    else if (rx & (PN_RX_INTEGRITY_ERROR | PN_RX_PROTOCOL_ERROR) || (n && n != 2 + PN_UID_LEN))
        *what = SLOT_GARBLED;
    else if (!n)
        *what = SLOT_EMPTY;
    else {
        uint8_t f[2] = {PN_READ_DATA, 0}, a[2 + PN_UID_LEN];
        st = frame(reader, f, 0, 2);
        if (st == PN_OK)
            st = frame(reader, 0, a, sizeof a);
        for (uint8_t i = 0; i < PN_UID_LEN; i++) /* on air least significant byte first */
            uid[i] = a[2 + PN_UID_LEN - 1 - i];
        *what = SLOT_UID;
    }
    return st;
}

static uint8_t known(const pn_inventory_t *inv, const uint8_t *uid)
{
    for (uint8_t i = 0; i < inv->count; i++)
        if (!memcmp(inv->uid[i], uid, PN_UID_LEN))
            return 1;
    return 0;
}

static pn_status_t stay_quiet(uint8_t reader, const uint8_t *uid)
{
    uint8_t f[2 + PN_UID_LEN] = {ISO15693_FLAGS_ADDRESSED, ISO15693_STAY_QUIET};
    for (uint8_t i = 0; i < PN_UID_LEN; i++)
        f[2 + i] = uid[PN_UID_LEN - 1 - i];
    return transceive(reader, f, sizeof f); /* no reply: the receiver times out */
}

typedef struct {
    uint8_t mask[PN_UID_LEN]; /* on-air order: bit 0 of mask[0] is the UID's least significant bit */
    uint8_t bits;
} mask_t;

/* One 16-slot round under `m`: read UIDs, push collided slots as longer masks. Returns the slots that
 * were garbled (a round to repeat), or 0xFF when the search must stop (limit reached, stack full). */
static uint8_t round16(uint8_t reader, pn_inventory_t *inv, uint8_t limit, const mask_t *m, mask_t *stack,
                       uint8_t *depth, pn_status_t *st)
{
    uint8_t req[3 + PN_UID_LEN] = {ISO15693_FLAGS_INVENTORY_16, ISO15693_INVENTORY, m->bits};
    uint8_t mask_bytes = (uint8_t)((m->bits + 7) / 8), garbled = 0, stop = 0;
    memcpy(req + 3, m->mask, mask_bytes);
    inv->rounds++;
    *st = transceive(reader, req, (uint8_t)(3 + mask_bytes));
    for (uint8_t slot = 0; slot < 16 && *st == PN_OK; slot++) {
        slot_t what;
        uint8_t uid[PN_UID_LEN];
        if (slot)
            *st = transceive(reader, 0, 0); /* EOF: the next slot */
        if (*st == PN_OK)
            *st = read_slot(reader, &what, uid);
        if (*st != PN_OK)
            break;
        inv->slots++;
        if (stop)
            continue; /* the round still has to be stepped to its end */
        if (what == SLOT_UID && !known(inv, uid)) {
            if (inv->count == limit) {
                stop = 1; /* one more than the reader is proven for: the rest is not to be trusted */
                continue;
            }
            memcpy(inv->uid[inv->count++], uid, PN_UID_LEN);
        } else if (what == SLOT_COLLISION) {
            inv->collisions++;
            if (*depth == PN_MASK_DEPTH || m->bits + 4 > 60) {
                stop = 1;
                continue;
            }
            mask_t *next = &stack[(*depth)++];
            *next = *m;
            next->mask[m->bits / 8] |= (uint8_t)(slot << (m->bits % 8));
            next->bits = (uint8_t)(m->bits + 4);
        } else if (what == SLOT_GARBLED) {
            inv->garbled++;
            garbled++;
        }
    }
    return stop ? 0xFF : garbled;
}

/* A 1-slot round: every chip in the field answers in its one slot; nothing at all means an empty field. */
static pn_status_t probe(uint8_t reader, pn_inventory_t *inv, slot_t *what)
{
    uint8_t req[3] = {ISO15693_FLAGS_INVENTORY_1, ISO15693_INVENTORY, 0}, uid[PN_UID_LEN];
    inv->rounds++;
    pn_status_t st = transceive(reader, req, sizeof req);
    if (st == PN_OK)
        st = read_slot(reader, what, uid);
    if (st == PN_OK)
        inv->slots++;
    return st;
}

pn_status_t pn_inventory(uint8_t reader, pn_inventory_t *inv, uint8_t limit)
{
    mask_t stack[PN_MASK_DEPTH];
    uint8_t depth = 1, uncertain = 0;
    slot_t what;
    memset(inv, 0, sizeof *inv);
    memset(&stack[0], 0, sizeof stack[0]);
    if (limit > PN_MAX_TAGS)
        limit = PN_MAX_TAGS;
    /* Most bet zones are empty most of the time: 2 ms for "nobody here" instead of a 16-slot round's 11.
     * Only silence is trusted; one reply or more goes to the full search (a weak chip may hide behind one). */
    pn_status_t st = probe(reader, inv, &what);
    if (st == PN_OK && what == SLOT_EMPTY) {
        inv->state = ZONE_READ_COMPLETE;
        return st;
    }
    while (depth && st == PN_OK && !uncertain) {
        mask_t m = stack[--depth];
        for (uint8_t attempt = 0;; attempt++) {
            uint8_t before = inv->count;
            uint8_t garbled = round16(reader, inv, limit, &m, stack, &depth, &st);
            if (st != PN_OK || garbled == 0)
                break;
            if (garbled == 0xFF || attempt == PN_RETRIES) {
                uncertain = 1;
                break;
            }
            /* repeat the round; the chips it read stay quiet so the garbled ones get the air */
            for (uint8_t i = before; i < inv->count && st == PN_OK; i++)
                st = stay_quiet(reader, inv->uid[i]);
        }
    }
    if (uncertain || depth)
        inv->state = inv->count || !inv->garbled ? ZONE_READ_UNCERTAIN : ZONE_READ_UNREADABLE;
    else
        inv->state = ZONE_READ_COMPLETE;
    return st;
}
