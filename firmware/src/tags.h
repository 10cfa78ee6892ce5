/*
 * Which tags each reader sees, debounced into "arrived" and "left" events. Plain C, no hardware: the host
 * tests drive it directly.
 *
 * Debounce: a tag has arrived the first time a complete SELECT (UID with BCC and CRC checked) names it; it
 * has left once it is missing from TAG_LEFT_POLLS consecutive polls of its reader. A reader in fault is not
 * polled, so its tags neither arrive nor leave until it answers again. A UID found by a second reader has
 * moved: it leaves its old zone at once, just before it arrives in the new one (the host's contract is
 * "left the shoe, then entered seat 3", and antennas are laid out so that their fields do not overlap).
 *
 * Memory is one static pool of TAG_SLOTS entries shared by every zone (a list per reader through `next`),
 * so RAM use is the same whether the table is empty or every zone is busy. A tag that finds the pool full
 * is counted in tags_dropped() and reported as soon as a slot frees up.
 */
#ifndef DEALERBOX_TAGS_H
#define DEALERBOX_TAGS_H

#include <stdint.h>

#include "protocol.h"

#ifndef TAG_SLOTS
#define TAG_SLOTS 240 /* 54 cards + 186 chips and pucks in bet zones and the pot at once; < 255 */
#endif
#ifndef TAG_READERS
#define TAG_READERS 25
#endif
#define TAG_LEFT_POLLS 2
#define TAG_NONE 0xFF

typedef struct {
    uint8_t uid[UID_MAX_LEN];
    uint8_t uid_len;
    uint8_t missed; /* consecutive polls of its reader without this tag */
    uint8_t seen;   /* seen during the current poll */
    uint8_t next;   /* next slot of the same reader, or TAG_NONE */
} tag_slot_t;

/* Called for every arrival and departure; `left` is 0 for arrived, 1 for left. */
typedef void (*tag_event_fn)(uint8_t reader, uint8_t left, const uint8_t *uid, uint8_t uid_len);

void tags_init(tag_event_fn on_event);
/* A reader's poll: tags_seen for every UID its inventory found, then tags_end_poll. */
void tags_seen(uint8_t reader, const uint8_t *uid, uint8_t uid_len);
void tags_end_poll(uint8_t reader);
/* End a poll that was not complete (a stack read "uncertain"): tags_seen arrivals stand, nobody leaves. */
void tags_hold_poll(uint8_t reader);
/* Report every present tag as arrived again (CMD_INVENTORY after a host reconnect). */
void tags_inventory(void);
uint16_t tags_present(void);
uint16_t tags_dropped(void);

#endif
