/* The hardware-access layer on the ATmega2560 (Arduino Mega 2560): see hal.h. Wiring in board.h. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <stddef.h>
#include <util/atomic.h>

#include "board.h"
#include "hal.h"

static const struct { char port; uint8_t bit; } reader_selects[READER_COUNT] = READER_SELECTS;

/* --- time ------------------------------------------------------------------------------------------ */
static volatile uint32_t ms_ticks;
static hal_tick_fn tick_hook;

uint32_t millis(void)
{
    uint32_t v;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { v = ms_ticks; }
    return v;
}

uint8_t millis8(void)
{
    return (uint8_t)ms_ticks; /* one byte: read in one instruction, no tearing */
}

uint16_t hal_us4(void)
{
    return TCNT5; /* the 16-bit read goes through TEMP; no interrupt handler touches timer 5 */
}

void hal_wait_ms(uint16_t ms)
{
    uint32_t t0 = millis();
    while (millis() - t0 < ms) {
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_mode();
    }
}

ISR(TIMER0_COMPA_vect)
{
    ms_ticks++;
    if (tick_hook)
        tick_hook(ms_ticks);
}

/* --- SPI and chip selects ---------------------------------------------------------------------------- */
static volatile uint8_t *port_reg(char port)
{
    switch (port) {
    case 'A': return &PORTA;
    case 'B': return &PORTB;
    case 'C': return &PORTC;
    case 'D': return &PORTD;
    case 'E': return &PORTE;
    case 'F': return &PORTF;
    case 'G': return &PORTG;
    case 'H': return &PORTH;
    case 'K': return &PORTK;
    default: return &PORTL;
    }
}

/* Looked up once at start-up: the port and bit mask of every select, BUSY and IRQ line (a variable shift
 * costs the AVR a loop, and the PN5180 scan touches these lines a few thousand times per sweep). */
#define STACKS (READER_COUNT - PN5180_FIRST_READER)
static volatile uint8_t *sel_port[READER_COUNT], *busy_in[STACKS], *irq_in[STACKS];
static uint8_t sel_mask[READER_COUNT], busy_mask[STACKS], irq_mask[STACKS];

/* MFRC522s at 1 MHz over the ribbon cable; PN5180s at 4 MHz (they take up to 7 MHz, hardware/chip-stacks.md):
 * a stack's inventory moves ~30 bytes a slot, so the bus clock is a good part of a chip zone's read time */
static void spi_clock_for(uint8_t reader)
{
    SPCR = reader >= PN5180_FIRST_READER ? _BV(SPE) | _BV(MSTR) : _BV(SPE) | _BV(MSTR) | _BV(SPR0);
}

void spi_select(uint8_t reader)
{
    spi_clock_for(reader);
    *sel_port[reader] &= (uint8_t)~sel_mask[reader];
}

void spi_release(uint8_t reader)
{
    *sel_port[reader] |= sel_mask[reader];
}

void spi_frame(uint8_t reader, const uint8_t *out, uint8_t *in, uint8_t n)
{
    volatile uint8_t *port = sel_port[reader];
    uint8_t mask = sel_mask[reader];
    spi_clock_for(reader);
    *port &= (uint8_t)~mask;
    while (n--) {
        SPDR = out ? *out++ : 0xFF;
        while (!(SPSR & _BV(SPIF)))
            ;
        uint8_t b = SPDR;
        if (in)
            *in++ = b;
    }
    *port |= mask;
}

uint8_t spi_transfer(uint8_t out)
{
    SPDR = out;
    while (!(SPSR & _BV(SPIF)))
        ;
    return SPDR;
}

static const struct { char port; uint8_t bit; } busy_pins[STACKS] = PN5180_BUSY_PINS, irq_pins[STACKS] = PN5180_IRQ_PINS;

uint8_t hal_busy(uint8_t reader)
{
    if (reader < PN5180_FIRST_READER || reader >= READER_COUNT)
        return 0; /* an MFRC522 has no BUSY line */
    reader -= PN5180_FIRST_READER;
    return (*busy_in[reader] & busy_mask[reader]) != 0;
}

uint8_t hal_irq(uint8_t reader)
{
    if (reader < PN5180_FIRST_READER || reader >= READER_COUNT)
        return 0;
    reader -= PN5180_FIRST_READER;
    return (*irq_in[reader] & irq_mask[reader]) != 0;
}

void hal_init(hal_tick_fn on_tick)
{
    tick_hook = on_tick;
    for (uint8_t i = 0; i < STACKS; i++) { /* inputs (the reset state); PINx sits two below PORTx */
        busy_in[i] = port_reg(busy_pins[i].port) - 2;
        busy_mask[i] = (uint8_t)_BV(busy_pins[i].bit);
        irq_in[i] = port_reg(irq_pins[i].port) - 2;
        irq_mask[i] = (uint8_t)_BV(irq_pins[i].bit);
    }
    for (uint8_t r = 0; r < READER_COUNT; r++) {
        volatile uint8_t *port = port_reg(reader_selects[r].port);
        sel_port[r] = port;
        sel_mask[r] = (uint8_t)_BV(reader_selects[r].bit);
        *port |= _BV(reader_selects[r].bit);       /* high first: no reader sees a stray select */
        *(port - 1) |= _BV(reader_selects[r].bit); /* DDRx sits just below PORTx on the ATmega2560 */
    }
    PORTL |= _BV(READER_RESET_BIT);
    DDRL |= _BV(READER_RESET_BIT);
    /* SCK, MOSI and SS as outputs (SS must not be an input, or a low level would drop us out of master) */
    DDRB |= _BV(PB0) | _BV(PB1) | _BV(PB2) | _BV(STATUS_LED_BIT);
    PORTB |= _BV(PB3);                       /* weak pull-up on MISO as well as the board's 10k */
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(SPR0); /* mode 0, MSB first, 16 MHz / 16 = 1 MHz over ribbon cable */
    PORTE |= _BV(SHOE_MOUTH_BIT) | _BV(SHOE_FACE_BIT); /* sensor inputs with pull-ups */
    /* timer 0: CTC, clk/64, 250 counts = 1 ms */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    /* timer 5: free running, clk/64 = 4 us a tick (hal_us4) */
    TCCR5A = 0;
    TCCR5B = _BV(CS51) | _BV(CS50);
}
