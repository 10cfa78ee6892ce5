/*
 * Host tests of the firmware's protocol code against the golden vectors the Python decoder also reads
 * (firmware/vectors/frames.tsv and streams.tsv): one protocol, byte-identical in both languages.
 * Usage: test_protocol <frames.tsv> [<streams.tsv>]. Exit status 0 only if every check passed.
 */
#include "../src/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static size_t unhex(const char *s, uint8_t *out)
{
    size_t n = 0;
    while (s[0] && s[1]) {
        unsigned v;
        sscanf(s, "%2x", &v);
        out[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = 0;
}

typedef struct {
    char name[64];
    unsigned seq, type;
    uint8_t body[256], raw[256], wire[300];
    size_t body_len, raw_len, wire_len;
} vector_t;

static vector_t vectors[64];
static int n_vectors;

static void load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s: run from firmware/ or pass the path to frames.tsv\n", path);
        exit(2);
    }
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fields[6];
        char *p = line;
        for (int i = 0; i < 6; i++) {
            fields[i] = p;
            p = strpbrk(p, "\t\n");
            if (p)
                *p++ = 0;
            else
                p = "";
        }
        vector_t *v = &vectors[n_vectors++];
        snprintf(v->name, sizeof v->name, "%s", fields[0]);
        v->seq = (unsigned)strtoul(fields[1], NULL, 10);
        v->type = (unsigned)strtoul(fields[2], NULL, 16);
        v->body_len = unhex(fields[3], v->body);
        v->raw_len = unhex(fields[4], v->raw);
        v->wire_len = unhex(fields[5], v->wire);
    }
    fclose(f);
}

static const vector_t *find(const char *name)
{
    for (int i = 0; i < n_vectors; i++)
        if (!strcmp(vectors[i].name, name))
            return &vectors[i];
    fprintf(stderr, "vector %s missing from frames.tsv\n", name);
    exit(2);
}

/* Every row: encoding gives the wire bytes; decoding the wire bytes gives back type, seq and body. */
static void test_rows(void)
{
    for (int i = 0; i < n_vectors; i++) {
        const vector_t *v = &vectors[i];
        uint8_t out[FRAME_MAX_WIRE];
        char got[2 * FRAME_MAX_WIRE + 1], want[2 * FRAME_MAX_WIRE + 1];
        size_t n = proto_encode_frame((uint8_t)v->type, (uint16_t)v->seq, v->body, (uint8_t)v->body_len, out);
        hex(out, n, got);
        hex(v->wire, v->wire_len, want);
        CHECK(n == v->wire_len && !memcmp(out, v->wire, n), "%s: encode gave %s, want %s", v->name, got, want);

        uint8_t raw[FRAME_MAX_WIRE];
        int r = proto_cobs_decode(v->wire, v->wire_len - 1, raw);
        CHECK(r == (int)v->raw_len && !memcmp(raw, v->raw, v->raw_len), "%s: COBS decode != raw_hex", v->name);

        proto_decoder_t d;
        proto_decoder_init(&d);
        proto_result_t res = PROTO_NONE;
        for (size_t k = 0; k < v->wire_len; k++) {
            res = proto_decoder_feed(&d, v->wire[k]);
            if (k + 1 < v->wire_len)
                CHECK(res == PROTO_NONE, "%s: decoder finished early at byte %zu", v->name, k);
        }
        CHECK(res == PROTO_FRAME, "%s: decoder gave %d, want a frame", v->name, res);
        CHECK(d.type == v->type && d.seq == v->seq, "%s: decoded type %u seq %u", v->name, d.type, d.seq);
        CHECK(d.body_len == v->body_len && !memcmp(d.body, v->body, v->body_len), "%s: decoded body differs",
              v->name);
    }
}

static void expect_body(const char *name, const uint8_t *body, uint8_t len)
{
    const vector_t *v = find(name);
    CHECK(len == v->body_len && !memcmp(body, v->body, len), "%s: typed encoder body differs", name);
}

/* The typed body encoders give the same bodies as the Python dataclasses (values from tools/gen_vectors.py). */
static void test_bodies(void)
{
    uint8_t b[FRAME_MAX_BODY];
    const uint8_t fw200[3] = {2, 0, 0}, fw010[3] = {0, 1, 0};
    const uint8_t all_zones[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    const uint8_t shoe_only[] = {ZONE_SHOE};
    expect_body("hello", b, proto_body_hello(b, fw200, all_zones, sizeof all_zones));
    expect_body("hello_minimal", b, proto_body_hello(b, fw010, shoe_only, 1));
    const uint8_t u4[] = {0x04, 0xa1, 0xb2, 0xc3};
    expect_body("tag_arrived_shoe_uid4", b, proto_body_tag(b, ZONE_SHOE, TECH_ISO14443A, u4, 4));
    const uint8_t u7[] = {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
    expect_body("tag_arrived_seat3_uid7", b, proto_body_tag(b, 3, proto_tech_of_uid(7), u7, 7));
    const uint8_t u10[] = {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};
    expect_body("tag_left_bet10_uid10", b, proto_body_tag(b, ZONE_BET_LAST, TECH_ISO14443A, u10, 10));
    const uint8_t up[] = {0x04, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01};
    const uint8_t down[] = {0x04, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x02};
    expect_body("card_face_up", b, proto_body_card_face(b, ZONE_SHOE, 1, TECH_ISO14443A, up, 7));
    expect_body("card_face_down", b, proto_body_card_face(b, ZONE_SHOE, 0, TECH_ISO14443A, down, 7));
    const uint8_t chip[] = {0xe0, 0x04, 0x01, 0x08, 0x12, 0x34, 0x56, 0x78};
    expect_body("tag_arrived_bet4_icode", b, proto_body_tag(b, ZONE_BET_FIRST + 3, proto_tech_of_uid(8), chip, 8));
    expect_body("zone_inventory_complete", b, proto_body_zone_inventory(b, 24, ZONE_READ_COMPLETE, 20));
    expect_body("zone_inventory_uncertain", b, proto_body_zone_inventory(b, 25, ZONE_READ_UNCERTAIN, 14));
    expect_body("zone_inventory_unreadable", b, proto_body_zone_inventory(b, 3, ZONE_READ_UNREADABLE, 0));
    expect_body("reader_fault_no_answer", b, proto_body_reader_fault(b, 5, ZONE_MUCK, FAULT_NO_ANSWER));
    expect_body("reader_recovered", b, proto_body_reader_fault(b, 5, ZONE_MUCK, FAULT_RECOVERED));
    expect_body("heartbeat", b, proto_body_heartbeat(b, 3600000UL, 57, 0));
    expect_body("heartbeat_faults", b, proto_body_heartbeat(b, 0xFFFFFFFFUL, 0xFFFF, 0x80000001UL));
}

/* The sender numbers frames, wraps at 65536 and restarts at 0 on HELLO, as the Python Encoder does. */
static void test_sender(void)
{
    proto_sender_t s;
    uint8_t out[FRAME_MAX_WIRE], b[FRAME_MAX_BODY];
    proto_sender_init(&s);
    s.seq = 65535;
    uint8_t n = proto_body_heartbeat(b, 1, 0, 0);
    size_t w = proto_send(&s, MSG_HEARTBEAT, b, n, out);
    const vector_t *v = find("seq_wrap");
    CHECK(w == v->wire_len && !memcmp(out, v->wire, w), "seq_wrap: sender bytes differ");
    CHECK(s.seq == 0, "sequence did not wrap to 0 (got %u)", s.seq);
    s.seq = 41;
    const uint8_t fw010[3] = {0, 1, 0}, shoe_only[] = {ZONE_SHOE};
    n = proto_body_hello(b, fw010, shoe_only, 1);
    w = proto_send(&s, MSG_HELLO, b, n, out);
    v = find("hello_minimal");
    CHECK(w == v->wire_len && !memcmp(out, v->wire, w), "HELLO did not restart numbering at 0");
    CHECK(s.seq == 1, "after HELLO the next seq is %u, want 1", s.seq);
    uint8_t big[FRAME_MAX_BODY + 1] = {0};
    CHECK(proto_send(&s, MSG_HEARTBEAT, big, sizeof big, out) == 0 && s.seq == 1, "oversize body was sent");
}

static void test_commands(void)
{
    const vector_t *v = find("cmd_heartbeat_period");
    proto_command_t c = proto_parse_command((uint8_t)v->type, v->body, (uint8_t)v->body_len);
    CHECK(c.kind == CMD_HEARTBEAT_PERIOD && c.period_ms == 1000, "cmd_heartbeat_period parsed as %d/%u", c.kind,
          c.period_ms);
    v = find("cmd_hello");
    CHECK(proto_parse_command((uint8_t)v->type, v->body, 0).kind == CMD_HELLO, "cmd_hello not recognised");
    v = find("cmd_inventory");
    CHECK(proto_parse_command((uint8_t)v->type, v->body, 0).kind == CMD_INVENTORY, "cmd_inventory not recognised");
    uint8_t one = 1;
    CHECK(proto_parse_command(MSG_CMD_HEARTBEAT_PERIOD, &one, 1).kind == CMD_UNKNOWN, "short period accepted");
    CHECK(proto_parse_command(MSG_CMD_HELLO, &one, 1).kind == CMD_UNKNOWN, "CMD_HELLO with a body accepted");
    CHECK(proto_parse_command(MSG_HEARTBEAT, NULL, 0).kind == CMD_UNKNOWN, "a board message taken as a command");
}

/* Feed bytes; return the results that were not PROTO_NONE, in order. */
static int feed_all(proto_decoder_t *d, const uint8_t *b, size_t n, proto_result_t *results)
{
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        proto_result_t r = proto_decoder_feed(d, b[i]);
        if (r != PROTO_NONE)
            results[k++] = r;
    }
    return k;
}

static void test_damage(void)
{
    const vector_t *v = find("tag_arrived_seat3_uid7");
    proto_decoder_t d;
    proto_result_t res[16];
    uint8_t buf[600];

    /* bad CRC: flip one body bit, re-stuff, the decoder refuses it */
    uint8_t raw[FRAME_MAX_RAW];
    memcpy(raw, v->raw, v->raw_len);
    raw[4] ^= 0x01;
    size_t n = proto_cobs_encode(raw, v->raw_len, buf);
    buf[n++] = 0;
    proto_decoder_init(&d);
    int k = feed_all(&d, buf, n, res);
    CHECK(k == 1 && res[0] == PROTO_BAD_CRC && d.bad_crc == 1 && d.frames == 0, "bad CRC not caught");

    /* truncated: a frame cut short by a delimiter in the middle counts, the next whole frame decodes */
    proto_decoder_init(&d);
    memcpy(buf, v->wire, 3);
    buf[3] = 0;
    memcpy(buf + 4, v->wire, v->wire_len);
    k = feed_all(&d, buf, 4 + v->wire_len, res);
    CHECK(k == 2 && res[0] != PROTO_FRAME && res[1] == PROTO_FRAME && d.frames == 1,
          "truncated frame then good frame: %d results", k);
    CHECK(d.truncated + d.bad_cobs + d.bad_crc == 1, "the cut frame was not counted once");

    /* a raw frame too short to hold a CRC */
    const uint8_t tiny[] = {0x03, 0x01, 0x02, 0x00};
    proto_decoder_init(&d);
    k = feed_all(&d, tiny, sizeof tiny, res);
    CHECK(k == 1 && res[0] == PROTO_TRUNCATED && d.truncated == 1, "a 2-byte frame was not truncated");

    /* bad COBS: a code byte pointing past the end of the chunk */
    const uint8_t bad[] = {0x09, 0x01, 0x02, 0x00};
    proto_decoder_init(&d);
    k = feed_all(&d, bad, sizeof bad, res);
    CHECK(k == 1 && res[0] == PROTO_BAD_COBS, "bad COBS not caught");

    /* garbage resync: line noise, then frames; the decoder resynchronises on the first delimiter */
    proto_decoder_init(&d);
    const char *noise = "\x55\xaa\x13\x37 junk on the line";
    size_t m = strlen(noise);
    memcpy(buf, noise, m);
    buf[m++] = 0;
    memcpy(buf + m, v->wire, v->wire_len);
    m += v->wire_len;
    memcpy(buf + m, find("heartbeat")->wire, find("heartbeat")->wire_len);
    m += find("heartbeat")->wire_len;
    k = feed_all(&d, buf, m, res);
    CHECK(k == 3 && res[0] != PROTO_FRAME && res[1] == PROTO_FRAME && res[2] == PROTO_FRAME,
          "garbage resync: %d results", k);
    CHECK(d.type == MSG_HEARTBEAT && d.seq == 9, "last frame after resync is type %u seq %u", d.type, d.seq);

    /* a lost delimiter: an over-long chunk is dropped whole, the following frame still decodes */
    proto_decoder_init(&d);
    memset(buf, 0x41, 300);
    buf[300] = 0;
    memcpy(buf + 301, v->wire, v->wire_len);
    k = feed_all(&d, buf, 301 + v->wire_len, res);
    CHECK(k == 2 && res[0] == PROTO_OVERSIZE && res[1] == PROTO_FRAME && d.oversize == 1, "oversize: %d", k);
    CHECK(d.body_len == v->body_len && !memcmp(d.body, v->body, v->body_len), "frame after oversize differs");

    /* empty chunks between delimiters are idle line, not damage */
    proto_decoder_init(&d);
    const uint8_t zeros[] = {0, 0, 0};
    CHECK(feed_all(&d, zeros, 3, res) == 0, "empty chunks reported");
}

/* COBS round trip across the 254-byte block boundary (longer than any frame, but the code must hold). */
static void test_cobs_blocks(void)
{
    static uint8_t in[600], enc[700], dec[700];
    for (size_t len = 0; len < sizeof in; len += 37) {
        for (size_t i = 0; i < len; i++)
            in[i] = (uint8_t)((i % 300 == 7) ? 0 : (i % 251) + 1);
        size_t e = proto_cobs_encode(in, len, enc);
        int ok = 1;
        for (size_t i = 0; i < e; i++)
            ok &= enc[i] != 0;
        int dl = proto_cobs_decode(enc, e, dec);
        CHECK(ok && dl == (int)len && !memcmp(in, dec, len), "COBS round trip failed for %zu bytes", len);
    }
}

/* The damaged streams: the board's decoder (framing and CRC only; sequence numbers, bodies and HELLO
 * recovery are the host's) must deliver, in order, every expected frame whose recovery needs no more than
 * framing, and count the same framing damage as the host. */
static int n_streams;

static void test_streams(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    static char line[8192];
    static uint8_t stream[4096];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fields[4], *p = line;
        for (int i = 0; i < 4; i++) {
            fields[i] = p;
            p = p ? strpbrk(p, "\t\n") : 0;
            if (p)
                *p++ = 0;
        }
        n_streams++;
        size_t n = unhex(fields[1], stream);
        proto_decoder_t d;
        proto_decoder_init(&d);
        uint8_t got[32][FRAME_MAX_RAW];
        size_t got_len[32];
        int n_got = 0;
        for (size_t i = 0; i < n; i++)
            if (proto_decoder_feed(&d, stream[i]) == PROTO_FRAME && n_got < 32) {
                got[n_got][0] = d.type, got[n_got][1] = (uint8_t)d.seq, got[n_got][2] = (uint8_t)(d.seq >> 8);
                memcpy(got[n_got] + 3, d.body, d.body_len);
                got_len[n_got++] = (size_t)d.body_len + 3;
            }
        int host_only = strstr(fields[3], "hellos_recovered") != 0; /* the board does not recover HELLOs */
        /* every expected frame, in order, among what the board's decoder delivered (it may deliver more:
         * frames with a bad body or an unknown type, which the host drops after the CRC) */
        int k = 0, missing = 0;
        char *tok = strcmp(fields[2], "-") ? strtok(fields[2], " ") : 0;
        for (; tok; tok = strtok(0, " ")) {
            uint8_t want[FRAME_MAX_RAW + 2];
            size_t wl = unhex(tok, want) - 2; /* raw_hex ends with the CRC the decoder has checked */
            int at = k;
            while (at < n_got && !(got_len[at] == wl && !memcmp(got[at], want, wl)))
                at++;
            if (at == n_got)
                missing++;
            else
                k = at + 1;
        }
        CHECK(host_only ? missing == 1 : missing == 0, "stream %s: %d expected frames not delivered", fields[0],
              missing);
        unsigned want_cobs = 0, want_trunc = 0, want_crc = 0, want_over = 0;
        const char *c;
        if ((c = strstr(fields[3], "bad_cobs=")))
            want_cobs = (unsigned)atoi(c + 9);
        if ((c = strstr(fields[3], "truncated=")))
            want_trunc = (unsigned)atoi(c + 10);
        if ((c = strstr(fields[3], "bad_crc=")))
            want_crc = (unsigned)atoi(c + 8);
        if ((c = strstr(fields[3], "oversize=")))
            want_over = (unsigned)atoi(c + 9);
        CHECK(d.bad_cobs == want_cobs && d.truncated == want_trunc && d.bad_crc == want_crc && d.oversize == want_over,
              "stream %s: board counted cobs %u trunc %u crc %u over %u", fields[0], d.bad_cobs, d.truncated,
              d.bad_crc, d.oversize);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    load(argc > 1 ? argv[1] : "vectors/frames.tsv");
    test_streams(argc > 2 ? argv[2] : "vectors/streams.tsv");
    CHECK(n_streams >= 18, "only %d stream vectors read", n_streams);
    CHECK(n_vectors >= 17, "only %d vectors read", n_vectors);
    test_rows();
    test_bodies();
    test_sender();
    test_commands();
    test_damage();
    test_cobs_blocks();
    printf("protocol host tests: %d vectors, %d streams, %d checks, %d failed\n", n_vectors, n_streams, checks,
           failures);
    return failures ? 1 : 0;
}
