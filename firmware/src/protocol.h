/*
 * The reader-board wire protocol in plain C, compiled for the ATmega2560 and for the host tests.
 *
 * Mirror of dealerbox/wire/protocol.py: the constant names are the same in both languages, so grepping
 * one finds the other. One frame on the wire is COBS(type | seq u16 LE | body | crc16 LE) followed by 0x00;
 * the CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type, seq and body.
 * No allocation, no globals: the caller owns every buffer, so RAM use is visible at the call site.
 */
#ifndef DEALERBOX_PROTOCOL_H
#define DEALERBOX_PROTOCOL_H

#include <stdint.h>
#include <stddef.h>

/* --- versions ------------------------------------------------------------------------------------ */
#define PROTOCOL_VERSION_MAJOR 2
#define PROTOCOL_VERSION_MINOR 0

/* --- framing ------------------------------------------------------------------------------------- */
#define FRAME_DELIMITER 0x00
#define FRAME_HEADER_LEN 3 /* type + seq */
#define FRAME_CRC_LEN 2
#define FRAME_MAX_BODY 64
#define FRAME_MAX_RAW (FRAME_HEADER_LEN + FRAME_MAX_BODY + FRAME_CRC_LEN)
/* COBS adds one byte per 254 plus one; the wire form adds the delimiter. */
#define FRAME_MAX_ENCODED (FRAME_MAX_RAW + FRAME_MAX_RAW / 254 + 1)
#define FRAME_MAX_WIRE (FRAME_MAX_ENCODED + 1)
#define CRC16_INIT 0xFFFF

/* --- message types: board -> host ---------------------------------------------------------------- */
#define MSG_HELLO 0x01
#define MSG_TAG_ARRIVED 0x02
#define MSG_TAG_LEFT 0x03
#define MSG_CARD_FACE 0x04
#define MSG_READER_FAULT 0x05
#define MSG_HEARTBEAT 0x06
#define MSG_ZONE_INVENTORY 0x07 /* since 2.0 */
/* --- message types: host -> board ---------------------------------------------------------------- */
#define MSG_CMD_HELLO 0x81
#define MSG_CMD_INVENTORY 0x82
#define MSG_CMD_HEARTBEAT_PERIOD 0x83

/* --- zones (one antenna each) -------------------------------------------------------------------- */
#define ZONE_SHOE 0
#define ZONE_SEAT_FIRST 1 /* seat1 .. seat10 are 1 .. 10 */
#define ZONE_SEAT_LAST 10
#define ZONE_BOARD 11
#define ZONE_BURN 12
#define ZONE_MUCK 13
#define ZONE_BET_FIRST 21 /* bet1 .. bet10 are 21 .. 30 */
#define ZONE_BET_LAST 30
#define ZONE_POT 31
#define MAX_SEATS 10

/* --- reader fault codes -------------------------------------------------------------------------- */
#define FAULT_RECOVERED 0
#define FAULT_NO_ANSWER 1
#define FAULT_COMM_ERROR 2
#define FAULT_ANTENNA 3

/* --- tag technologies (since 2.0) and their UIDs ------------------------------------------------- */
#define TECH_ISO14443A 1 /* cards: NTAG213/215, 4/7/10-byte UIDs */
#define TECH_ISO15693 2  /* chips: ICODE SLIX/SLIX2, 8-byte UIDs */
#define UID_MAX_LEN 10

/* --- how completely a zone was read (ZONE_INVENTORY, since 2.0) ---------------------------------- */
#define ZONE_READ_COMPLETE 0   /* every tag in the field was read */
#define ZONE_READ_UNCERTAIN 1  /* more may be there than were read: the count is a floor */
#define ZONE_READ_UNREADABLE 2 /* something answers but no UID reads: neither empty nor a known set */

/* CRC-16/CCITT-FALSE, incremental: start from CRC16_INIT. */
uint16_t proto_crc16(uint16_t crc, const uint8_t *data, size_t len);

/* COBS-encode `len` bytes into `out` (room for len + len/254 + 1); returns the encoded length. */
size_t proto_cobs_encode(const uint8_t *in, size_t len, uint8_t *out);
/* COBS-decode one chunk (no delimiter) into `out` (room for len); returns the length or -1 if invalid. */
int proto_cobs_decode(const uint8_t *in, size_t len, uint8_t *out);

/* A frame's wire bytes (COBS + trailing 0x00) into `out` (FRAME_MAX_WIRE bytes); returns the length,
 * or 0 if the body is longer than FRAME_MAX_BODY. */
size_t proto_encode_frame(uint8_t type, uint16_t seq, const uint8_t *body, uint8_t body_len, uint8_t *out);

/* --- message bodies (layouts as in dealerbox/wire/protocol.py); each returns the body length ------- */
uint8_t proto_body_hello(uint8_t *body, const uint8_t firmware[3], const uint8_t *zones, uint8_t n_zones);
/* The technology a UID of this length belongs to: 8 bytes is ICODE (ISO 15693), 4/7/10 ISO 14443A. */
uint8_t proto_tech_of_uid(uint8_t uid_len);
/* TAG_ARRIVED and TAG_LEFT share one layout: zone, technology, uid length, uid. */
uint8_t proto_body_tag(uint8_t *body, uint8_t zone, uint8_t tech, const uint8_t *uid, uint8_t uid_len);
uint8_t proto_body_card_face(uint8_t *body, uint8_t zone, uint8_t face_up, uint8_t tech, const uint8_t *uid,
                             uint8_t uid_len);
/* ZONE_INVENTORY: zone, read state (ZONE_READ_*), tags proven present. */
uint8_t proto_body_zone_inventory(uint8_t *body, uint8_t zone, uint8_t state, uint8_t tags);
uint8_t proto_body_reader_fault(uint8_t *body, uint8_t reader, uint8_t zone, uint8_t code);
uint8_t proto_body_heartbeat(uint8_t *body, uint32_t uptime_ms, uint16_t tags_present, uint32_t faulty_readers);

/* --- the board's sender: numbers frames in order; a HELLO restarts the numbering at 0 ---------------- */
typedef struct {
    uint16_t seq; /* the next frame's sequence number */
} proto_sender_t;

void proto_sender_init(proto_sender_t *s);
/* Encode one message with the next sequence number; returns the wire length (0: body too long). */
size_t proto_send(proto_sender_t *s, uint8_t type, const uint8_t *body, uint8_t body_len, uint8_t *out);

/* --- frame decoder: bytes in, checked frames out, damage counted ------------------------------------ */
typedef enum {
    PROTO_NONE = 0,   /* byte consumed, no frame finished yet */
    PROTO_FRAME,      /* a checked frame: type, seq, body, body_len are valid */
    PROTO_BAD_COBS,   /* the chunk before the delimiter is not valid COBS */
    PROTO_TRUNCATED,  /* too short to hold type, seq and CRC */
    PROTO_BAD_CRC,
    PROTO_OVERSIZE    /* longer than any frame (a lost delimiter): dropped up to the next 0x00 */
} proto_result_t;

typedef struct {
    uint8_t chunk[FRAME_MAX_ENCODED]; /* COBS bytes since the last delimiter */
    uint8_t chunk_len;
    uint8_t discarding;               /* inside an over-long chunk */
    uint8_t raw[FRAME_MAX_ENCODED];   /* the decoded frame; body points into it */
    uint8_t type;
    uint16_t seq;
    const uint8_t *body;
    uint8_t body_len;
    uint16_t frames, bad_cobs, truncated, bad_crc, oversize; /* counters, wrap silently */
} proto_decoder_t;

void proto_decoder_init(proto_decoder_t *d);
proto_result_t proto_decoder_feed(proto_decoder_t *d, uint8_t byte);

/* --- host commands the board understands --------------------------------------------------------- */
typedef enum { CMD_NONE = 0, CMD_HELLO, CMD_INVENTORY, CMD_HEARTBEAT_PERIOD, CMD_UNKNOWN } proto_command_kind_t;

typedef struct {
    proto_command_kind_t kind;
    uint16_t period_ms; /* CMD_HEARTBEAT_PERIOD only; 0 turns heartbeats off */
} proto_command_t;

/* Interpret a checked frame (type + body) as a host command; a wrong body length is CMD_UNKNOWN. */
proto_command_t proto_parse_command(uint8_t type, const uint8_t *body, uint8_t body_len);

#endif
