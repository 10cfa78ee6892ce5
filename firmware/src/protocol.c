/* The reader-board wire protocol: see protocol.h and dealerbox/wire/protocol.py. */
#include "protocol.h"

#include <string.h>

#ifdef __AVR__
#include <util/crc16.h>
#endif

uint16_t proto_crc16(uint16_t crc, const uint8_t *data, size_t len)
{
    while (len--) {
#ifdef __AVR__
        /* avr-libc's hand-written loop: poly 0x1021, MSB first, i.e. CCITT-FALSE when seeded 0xFFFF. */
        crc = _crc_xmodem_update(crc, *data++);
#else
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
#endif
    }
    return crc;
}

size_t proto_cobs_encode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t code_at = 0, o = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            if (++code == 0xFF) { /* a full 254-byte run: start a new block */
                out[code_at] = code;
                code_at = o++;
                code = 1;
            }
        }
    }
    out[code_at] = code;
    return o;
}

int proto_cobs_decode(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t i = 0, o = 0;
    while (i < len) {
        uint8_t code = in[i++];
        if (code == 0 || i + code - 1 > len)
            return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (in[i] == 0)
                return -1;
            out[o++] = in[i++];
        }
        /* a block shorter than 255 stands for a zero, except at the very end */
        if (code != 0xFF && i < len)
            out[o++] = 0;
    }
    return (int)o;
}

size_t proto_encode_frame(uint8_t type, uint16_t seq, const uint8_t *body, uint8_t body_len, uint8_t *out)
{
    uint8_t raw[FRAME_MAX_RAW];
    if (body_len > FRAME_MAX_BODY)
        return 0;
    raw[0] = type;
    raw[1] = (uint8_t)(seq & 0xFF);
    raw[2] = (uint8_t)(seq >> 8);
    memcpy(raw + FRAME_HEADER_LEN, body, body_len);
    size_t n = FRAME_HEADER_LEN + body_len;
    uint16_t crc = proto_crc16(CRC16_INIT, raw, n);
    raw[n++] = (uint8_t)(crc & 0xFF);
    raw[n++] = (uint8_t)(crc >> 8);
    size_t w = proto_cobs_encode(raw, n, out);
    out[w++] = FRAME_DELIMITER;
    return w;
}

uint8_t proto_body_hello(uint8_t *body, const uint8_t firmware[3], const uint8_t *zones, uint8_t n_zones)
{
    body[0] = PROTOCOL_VERSION_MAJOR;
    body[1] = PROTOCOL_VERSION_MINOR;
    body[2] = firmware[0];
    body[3] = firmware[1];
    body[4] = firmware[2];
    body[5] = n_zones;
    memcpy(body + 6, zones, n_zones);
    return (uint8_t)(6 + n_zones);
}

uint8_t proto_tech_of_uid(uint8_t uid_len)
{
    return uid_len == 8 ? TECH_ISO15693 : TECH_ISO14443A;
}

uint8_t proto_body_tag(uint8_t *body, uint8_t zone, uint8_t tech, const uint8_t *uid, uint8_t uid_len)
{
    body[0] = zone;
    body[1] = tech;
    body[2] = uid_len;
    memcpy(body + 3, uid, uid_len);
    return (uint8_t)(3 + uid_len);
}

uint8_t proto_body_card_face(uint8_t *body, uint8_t zone, uint8_t face_up, uint8_t tech, const uint8_t *uid,
                             uint8_t uid_len)
{
    body[0] = zone;
    body[1] = face_up ? 1 : 0;
    body[2] = tech;
    body[3] = uid_len;
    memcpy(body + 4, uid, uid_len);
    return (uint8_t)(4 + uid_len);
}

uint8_t proto_body_zone_inventory(uint8_t *body, uint8_t zone, uint8_t state, uint8_t tags)
{
    body[0] = zone;
    body[1] = state;
    body[2] = tags;
    return 3;
}

uint8_t proto_body_reader_fault(uint8_t *body, uint8_t reader, uint8_t zone, uint8_t code)
{
    body[0] = reader;
    body[1] = zone;
    body[2] = code;
    return 3;
}

static void put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

uint8_t proto_body_heartbeat(uint8_t *body, uint32_t uptime_ms, uint16_t tags_present, uint32_t faulty_readers)
{
    put_u32le(body, uptime_ms);
    body[4] = (uint8_t)tags_present;
    body[5] = (uint8_t)(tags_present >> 8);
    put_u32le(body + 6, faulty_readers);
    return 10;
}

void proto_sender_init(proto_sender_t *s)
{
    s->seq = 0;
}

size_t proto_send(proto_sender_t *s, uint8_t type, const uint8_t *body, uint8_t body_len, uint8_t *out)
{
    if (type == MSG_HELLO)
        s->seq = 0; /* the host treats a HELLO as a board reset and restarts its gap count */
    size_t n = proto_encode_frame(type, s->seq, body, body_len, out);
    if (n)
        s->seq++; /* u16: wraps at 65536 like SEQ_MODULO */
    return n;
}

void proto_decoder_init(proto_decoder_t *d)
{
    memset(d, 0, sizeof *d);
}

static proto_result_t finish_chunk(proto_decoder_t *d, uint8_t len)
{
    int n = proto_cobs_decode(d->chunk, len, d->raw);
    if (n < 0) {
        d->bad_cobs++;
        return PROTO_BAD_COBS;
    }
    if (n < FRAME_HEADER_LEN + FRAME_CRC_LEN) {
        d->truncated++;
        return PROTO_TRUNCATED;
    }
    uint16_t want = (uint16_t)(d->raw[n - 2] | (d->raw[n - 1] << 8));
    if (proto_crc16(CRC16_INIT, d->raw, (size_t)n - 2) != want) {
        d->bad_crc++;
        return PROTO_BAD_CRC;
    }
    d->type = d->raw[0];
    d->seq = (uint16_t)(d->raw[1] | (d->raw[2] << 8));
    d->body = d->raw + FRAME_HEADER_LEN;
    d->body_len = (uint8_t)(n - FRAME_HEADER_LEN - FRAME_CRC_LEN);
    d->frames++;
    return PROTO_FRAME;
}

proto_result_t proto_decoder_feed(proto_decoder_t *d, uint8_t byte)
{
    if (byte == FRAME_DELIMITER) {
        uint8_t len = d->chunk_len, discarding = d->discarding;
        d->chunk_len = 0;
        d->discarding = 0;
        if (discarding || len == 0)
            return PROTO_NONE; /* end of a dropped chunk, or back-to-back delimiters */
        return finish_chunk(d, len);
    }
    if (d->discarding)
        return PROTO_NONE;
    if (d->chunk_len >= sizeof d->chunk) {
        d->oversize++;
        d->discarding = 1;
        d->chunk_len = 0;
        return PROTO_OVERSIZE;
    }
    d->chunk[d->chunk_len++] = byte;
    return PROTO_NONE;
}

proto_command_t proto_parse_command(uint8_t type, const uint8_t *body, uint8_t body_len)
{
    proto_command_t c = {CMD_UNKNOWN, 0};
    switch (type) {
    case MSG_CMD_HELLO:
        if (body_len == 0)
            c.kind = CMD_HELLO;
        break;
    case MSG_CMD_INVENTORY:
        if (body_len == 0)
            c.kind = CMD_INVENTORY;
        break;
    case MSG_CMD_HEARTBEAT_PERIOD:
        if (body_len == 2) {
            c.kind = CMD_HEARTBEAT_PERIOD;
            c.period_ms = (uint16_t)(body[0] | (body[1] << 8));
        }
        break;
    default:
        break;
    }
    return c;
}
