/*
 * dealerbox reader board: ATmega2560 (Arduino Mega 2560) polling one MFRC522 per zone and streaming the
 * changes to the host over USB serial in the protocol of firmware/PROTOCOL.md.
 *
 * The main loop polls the card readers in turn, then scans every chip zone at once (PN5180s, below). One
 * card poll: switch the reader's antenna on (tags in its field
 * power up idle), let them settle, find every tag with REQA/anticollision/SELECT/HLTA until nobody answers,
 * switch the antenna off again (only one antenna radiates at a time: no cross-talk, a quarter of the power).
 * Between polls it answers host commands and sends heartbeats. The hardware itself (SPI, chip selects, the
 * 1 ms timer) is behind hal.h; the timer's tick samples the shoe's orientation sensor here.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <string.h>
#include <util/atomic.h>

#include "board.h"
#include "hal.h"
#include "mfrc522.h"
#include "pn5180.h"
#include "protocol.h"
#include "tags.h"

#define RF_SETTLE_MS 3          /* field on -> first command: tags need a moment of unmodulated carrier */
#define MAX_TAGS_PER_POLL 64    /* bounds one poll's time even if a reader reports nonsense */
#define FAULT_AFTER_POLLS 2     /* consecutive failed polls before a reader is reported faulty */
#define BAD_READS_GIVE_UP 8     /* bad frames in one poll, none read: the zone is unreadable this poll */
#define RETRY_FAULTY_EVERY 8    /* sweeps between attempts to revive a faulty reader */
#define FACE_QUEUE 8            /* cards that passed the shoe's mouth and have not yet left its antenna */
#define FACE_STALE_MS 3000      /* a passage older than this belongs to no departure */
#define FACE_MIN_SAMPLES 3      /* ms the beam must be blocked to count as a card (not a flick of dust) */
#define DEFAULT_HEARTBEAT_MS 1000

static const uint8_t reader_zones[READER_COUNT] = READER_ZONES;

/* --- shoe orientation: sampled every ms in the timer interrupt -------------------------------------- */
static volatile uint8_t face_head, face_count;
static volatile uint8_t face_up_q[FACE_QUEUE];
static volatile uint32_t face_at_q[FACE_QUEUE];
static uint16_t pass_samples, pass_dark;
static volatile uint8_t mouth_busy; /* the beam was blocked since the main loop last looked */

static void sample_shoe(uint32_t now_ms)
{
    uint8_t pins = PINE;
    if (!(pins & _BV(SHOE_MOUTH_BIT))) { /* beam blocked: a card is in the mouth */
        pass_samples++;
        mouth_busy = 1;
        if (pins & _BV(SHOE_FACE_BIT)) /* no reflection: the IR-dark back faces the felt */
            pass_dark++;
        return;
    }
    if (pass_samples >= FACE_MIN_SAMPLES) { /* the card has just cleared the mouth: record its face */
        uint8_t slot = (uint8_t)((face_head + face_count) % FACE_QUEUE);
        if (face_count == FACE_QUEUE) { /* full: forget the oldest */
            face_head = (uint8_t)((face_head + 1) % FACE_QUEUE);
            face_count--;
        }
        face_up_q[slot] = (uint8_t)(pass_dark * 2 > pass_samples);
        face_at_q[slot] = now_ms;
        face_count++;
    }
    pass_samples = pass_dark = 0;
}

/* The face of the oldest card that passed the mouth recently; face down if none did (a card lifted out
 * of the shoe by hand never crosses the sensor: reporting it face down raises no false boxed card). */
static uint8_t take_face(void)
{
    uint8_t up = 0;
    uint32_t now = millis();
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        while (face_count && now - face_at_q[face_head] > FACE_STALE_MS) {
            face_head = (uint8_t)((face_head + 1) % FACE_QUEUE);
            face_count--;
        }
        if (face_count) {
            up = face_up_q[face_head];
            face_head = (uint8_t)((face_head + 1) % FACE_QUEUE);
            face_count--;
        }
    }
    return up;
}

/* --- UART 0 (the Mega's USB bridge), interrupt driven ------------------------------------------------ */
#define TX_SIZE 256 /* power of two: indexes wrap with a mask */
#define RX_SIZE 64
static volatile uint8_t tx_buf[TX_SIZE], rx_buf[RX_SIZE];
static volatile uint8_t tx_head, tx_tail, rx_head, rx_tail;
static volatile uint8_t rx_overruns;

ISR(USART0_RX_vect)
{
    uint8_t b = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) % RX_SIZE);
    if (next == rx_tail) {
        rx_overruns++; /* the decoder will see a damaged frame and resynchronise */
        return;
    }
    rx_buf[rx_head] = b;
    rx_head = next;
}

ISR(USART0_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)(tx_tail + 1); /* TX_SIZE is 256: u8 wraps by itself */
}

static void uart_init(void)
{
    UCSR0A = _BV(U2X0);
    UBRR0 = (uint16_t)((F_CPU / (8UL * UART_BAUD)) - 1); /* 16: 115200 baud within 2.1 % */
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);                   /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* Queue bytes; waits when the buffer is full (frames are never dropped on the board). */
static void uart_write(const uint8_t *p, uint8_t n)
{
    while (n--) {
        uint8_t next = (uint8_t)(tx_head + 1);
        while (next == tx_tail)
            ; /* the UDRE interrupt drains it at 11.5 kB/s */
        tx_buf[tx_head] = *p++;
        tx_head = next;
        UCSR0B |= _BV(UDRIE0);
    }
}

static int uart_read(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t b = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) % RX_SIZE);
    return b;
}

/* --- messages ------------------------------------------------------------------------------------------ */
static proto_sender_t sender;
static uint8_t wire[FRAME_MAX_WIRE];

static void send(uint8_t type, const uint8_t *body, uint8_t len)
{
    size_t n = proto_send(&sender, type, body, len, wire);
    uart_write(wire, (uint8_t)n);
}

static void send_hello(void)
{
    static const uint8_t fw[3] = {FIRMWARE_VERSION_MAJOR, FIRMWARE_VERSION_MINOR, FIRMWARE_VERSION_PATCH};
    uint8_t body[FRAME_MAX_BODY];
    send(MSG_HELLO, body, proto_body_hello(body, fw, reader_zones, READER_COUNT));
}

static void on_tag(uint8_t reader, uint8_t left, const uint8_t *uid, uint8_t uid_len)
{
    uint8_t body[4 + UID_MAX_LEN], zone = reader_zones[reader], tech = proto_tech_of_uid(uid_len);
    if (!left && zone == ZONE_SHOE && SHOE_READ_AT_MOUTH)
        return; /* a card in the mouth's field is on its way out, not arriving: its departure is the news */
    if (left && zone == ZONE_SHOE) /* the orientation belongs before the card's departure (contract) */
        send(MSG_CARD_FACE, body, proto_body_card_face(body, zone, take_face(), tech, uid, uid_len));
    send(left ? MSG_TAG_LEFT : MSG_TAG_ARRIVED, body, proto_body_tag(body, zone, tech, uid, uid_len));
}

static void service_host(void);
static void watch_mouth(void);

/* --- readers ------------------------------------------------------------------------------------------ */
static uint32_t faulty;                /* bit r: reader r is reported faulty */
static uint8_t failures[READER_COUNT]; /* consecutive failed polls */
static uint8_t sweep;
static uint8_t zone_state[READER_COUNT]; /* last ZONE_READ_* sent per reader; ZONE_READ_COMPLETE (0) at start */
static uint8_t zone_tags[READER_COUNT];  /* the tags proven in that read */

static void send_read_state(uint8_t r)
{
    uint8_t body[3];
    send(MSG_ZONE_INVENTORY, body, proto_body_zone_inventory(body, reader_zones[r], zone_state[r], zone_tags[r]));
}

/* Tell the host when a zone's read state changes (protocol 2.0 ZONE_INVENTORY). */
static void report_read_state(uint8_t r, uint8_t state, uint8_t tags)
{
    if (zone_state[r] == state)
        return;
    zone_state[r] = state;
    zone_tags[r] = tags;
    send_read_state(r);
}

static void send_fault(uint8_t reader, uint8_t code)
{
    uint8_t body[3];
    send(MSG_READER_FAULT, body, proto_body_reader_fault(body, reader, reader_zones[reader], code));
}

static void poll_failed(uint8_t r, uint8_t code)
{
    if (failures[r] < 255)
        failures[r]++;
    if (failures[r] == FAULT_AFTER_POLLS && !(faulty & (1UL << r))) {
        faulty |= 1UL << r;
        send_fault(r, code);
    }
}

static uint8_t is_stack_reader(uint8_t r)
{
    return r >= PN5180_FIRST_READER;
}

/* A reader came back to good health after a whole good poll (so a flaky reader does not flap). */
static void poll_succeeded(uint8_t r, uint8_t was_faulty)
{
    failures[r] = 0;
    if (was_faulty) {
        faulty &= ~(1UL << r);
        send_fault(r, FAULT_RECOVERED);
    }
}

/* The chip zones (PN5180, ISO 15693): every healthy module's scan runs at the same time, the Mega stepping
 * each by one SPI frame in turn while the others' exchanges are on air (pn5180.h). ~200 bytes of state each. */
#define STACK_READERS (READER_COUNT - PN5180_FIRST_READER)
static pn_scan_t scans[STACK_READERS];
static uint8_t chips_last[STACK_READERS]; /* chips the zone's last good scan read */

static void on_chip(uint8_t reader, const uint8_t *uid)
{
    tags_seen(reader, uid, PN_UID_LEN); /* an arrival goes out at once; departures wait for the scan's end */
}

static void stack_done(uint8_t r, const pn_scan_t *s)
{
    if (s->status != PN_OK) { /* registers read all ones: nobody there; BUSY stayed high: a hung chip */
        tags_hold_poll(r);    /* its chips stay: a sick reader never makes a bet vanish */
        poll_failed(r, s->status == PN_ABSENT ? FAULT_NO_ANSWER : FAULT_COMM_ERROR);
        return;
    }
    poll_succeeded(r, (faulty & (1UL << r)) != 0);
    chips_last[r - PN5180_FIRST_READER] = s->count;
    report_read_state(r, s->state, s->count);
    if (s->state == ZONE_READ_COMPLETE)
        tags_end_poll(r); /* only a complete read may make a chip leave: an incomplete one proves nothing */
    else
        tags_hold_poll(r);
}

static uint8_t scanning[STACK_READERS], scans_left;

/* Module i's exchange just ended (or its scan just began): take it through its few frames (BUSY between
 * them is ~20 us) until its next exchange is on air, so a slot's turnaround is not a whole round of the
 * other modules long. */
static void serve(uint8_t i)
{
    pn_scan_t *s = &scans[i];
    uint8_t done;
    if (!scanning[i])
        return;
    while (!(done = pn_scan_step(s)) && !pn_scan_on_air(s))
        ;
    if (done) {
        scanning[i] = 0;
        scans_left--;
        stack_done((uint8_t)(PN5180_FIRST_READER + i), s);
    }
}

static void poll_stacks(void)
{
    for (uint8_t i = 0; i < STACK_READERS; i++) {
        uint8_t r = (uint8_t)(PN5180_FIRST_READER + i);
        if (faulty & (1UL << r)) {
            if (sweep % RETRY_FAULTY_EVERY != r % RETRY_FAULTY_EVERY)
                continue;
            if (pn_init(r) != PN_OK) /* it may have lost power and its RF configuration */
                continue;
        }
        pn_scan_begin(&scans[i], r, PN5180_PROVEN_CHIPS, on_chip);
        scans[i].skip_probe = chips_last[i] != 0; /* chips were there: the empty-field probe would only cost 6 ms */
        scanning[i] = 1;
        scans_left++;
    }
    while (scans_left) {
        for (uint8_t i = 0; i < STACK_READERS; i++)
            serve(i);
        service_host();
        watch_mouth();
    }
}

static void poll_reader(uint8_t r)
{
    uint8_t was_faulty = (faulty & (1UL << r)) != 0;
    if (was_faulty && sweep % RETRY_FAULTY_EVERY != r % RETRY_FAULTY_EVERY)
        return;
    if (was_faulty && !rc_init(r)) /* whatever went wrong may have cost it its registers */
        return;
    uint8_t v = rc_version(r);
    if (v == 0x00 || v == 0xFF) {
        poll_failed(r, FAULT_NO_ANSWER);
        return;
    }
    rc_antenna(r, 1);
    hal_wait_ms(RF_SETTLE_MS);
    uint8_t uid[UID_MAX_LEN], len = 0, stuck = 0, read = 0, bad = 0, i;
    for (i = 0; i < MAX_TAGS_PER_POLL; i++) {
        rc_status_t st = rc_next_tag(r, uid, &len);
        if (st == RC_NO_TAG)
            break;
        if (st == RC_STUCK) {
            stuck = 1;
            break;
        }
        if (st == RC_OK) {
            tags_seen(r, uid, len);
            read++;
        } else if (++bad >= BAD_READS_GIVE_UP && !read) {
            break; /* something answers and nothing reads: a damaged inlay or a detuned antenna */
        }
        /* a collision or bad frame: try again; the loser stays idle and answers the next REQA */
    }
    rc_antenna(r, 0);
    if (stuck) {
        poll_failed(r, FAULT_COMM_ERROR);
        return; /* keep its tags: a sick reader must not make cards "leave" */
    }
    poll_succeeded(r, was_faulty);
    if (bad >= BAD_READS_GIVE_UP && !read) {
        report_read_state(r, ZONE_READ_UNREADABLE, 0);
        return; /* its tags stay: an unreadable card is neither folded nor missing */
    }
    report_read_state(r, i == MAX_TAGS_PER_POLL ? ZONE_READ_UNCERTAIN : ZONE_READ_COMPLETE, read);
    tags_end_poll(r);
}

/* The shoe's antenna is a small loop at its mouth (hardware/README.md): a card is in its field only for the
 * few ms it takes to slide out, so the shoe is not left to its turn in the sweep. While the mouth's beam is
 * blocked, and for a few polls after it clears (so the card's departure follows at once), the shoe reader is
 * polled between every two other polls and on every pass of the chip scans. A card read there arrives in the
 * shoe and leaves it with its face, before it reaches a seat: the contract of a deal, unchanged. */
#define SHOE_READER 0
#define MOUTH_POLLS_AFTER (TAG_LEFT_POLLS + 1)
static uint8_t mouth_follow;

static void watch_mouth(void)
{
    if (mouth_busy) {
        mouth_busy = 0;
        mouth_follow = MOUTH_POLLS_AFTER;
    } else if (mouth_follow) {
        mouth_follow--;
    } else {
        return;
    }
    poll_reader(SHOE_READER);
}

/* --- host commands and heartbeat ------------------------------------------------------------------------ */
static proto_decoder_t decoder;
static uint16_t heartbeat_ms = DEFAULT_HEARTBEAT_MS;
static uint32_t last_heartbeat;

static void service_host(void)
{
    int b;
    while ((b = uart_read()) >= 0) {
        if (proto_decoder_feed(&decoder, (uint8_t)b) != PROTO_FRAME)
            continue;
        proto_command_t c = proto_parse_command(decoder.type, decoder.body, decoder.body_len);
        if (c.kind == CMD_HELLO) {
            send_hello();
            for (uint8_t r = 0; r < READER_COUNT; r++)
                if (faulty & (1UL << r))
                    send_fault(r, FAULT_NO_ANSWER); /* the host's view restarts with the HELLO */
        } else if (c.kind == CMD_INVENTORY) {
            tags_inventory();
            for (uint8_t r = 0; r < READER_COUNT; r++)
                if (zone_state[r] != ZONE_READ_COMPLETE) /* a zone not mentioned is complete */
                    send_read_state(r);
        } else if (c.kind == CMD_HEARTBEAT_PERIOD) {
            heartbeat_ms = c.period_ms;
            last_heartbeat = millis();
        }
    }
    uint32_t now = millis();
    if (heartbeat_ms && now - last_heartbeat >= heartbeat_ms) {
        last_heartbeat = now;
        uint8_t body[10];
        send(MSG_HEARTBEAT, body, proto_body_heartbeat(body, now, tags_present(), faulty));
        PINB = _BV(STATUS_LED_BIT); /* writing PINx toggles: the LED blinks with the heartbeat */
    }
}

int main(void)
{
    hal_init(sample_shoe); /* the shoe's sensor is sampled every millisecond, in the timer interrupt */
    uart_init();
    proto_sender_init(&sender);
    proto_decoder_init(&decoder);
    tags_init(on_tag);
    sei();
    hal_wait_ms(50); /* MFRC522 power-up after reset release */
    send_hello();
    for (uint8_t r = 0; r < READER_COUNT; r++)
        if (is_stack_reader(r) ? pn_init(r) != PN_OK : !rc_init(r)) {
            failures[r] = FAULT_AFTER_POLLS;
            faulty |= 1UL << r;
            send_fault(r, FAULT_NO_ANSWER);
        }
    for (;;) {
        for (uint8_t r = 0; r < PN5180_FIRST_READER; r++) { /* card zones, one antenna at a time */
            poll_reader(r);
            service_host();
            watch_mouth();
        }
        poll_stacks(); /* chip zones, all at once */
        sweep++;
    }
}
