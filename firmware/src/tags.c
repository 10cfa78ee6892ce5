/* Per-reader tag presence with debouncing: see tags.h. */
#include "tags.h"

#include <string.h>

static tag_slot_t slots[TAG_SLOTS];
static uint8_t heads[TAG_READERS]; /* first slot of each reader's list */
static uint8_t free_head;
static uint16_t present, dropped;
static tag_event_fn emit;

void tags_init(tag_event_fn on_event)
{
    emit = on_event;
    present = dropped = 0;
    for (uint8_t r = 0; r < TAG_READERS; r++)
        heads[r] = TAG_NONE;
    for (uint16_t i = 0; i < TAG_SLOTS; i++)
        slots[i].next = (uint8_t)(i + 1 < TAG_SLOTS ? i + 1 : TAG_NONE);
    free_head = 0;
}

void tags_seen(uint8_t reader, const uint8_t *uid, uint8_t uid_len)
{
    if (reader >= TAG_READERS || uid_len == 0 || uid_len > UID_MAX_LEN)
        return;
    for (uint8_t i = heads[reader]; i != TAG_NONE; i = slots[i].next)
        if (slots[i].uid_len == uid_len && !memcmp(slots[i].uid, uid, uid_len)) {
            slots[i].seen = 1;
            return;
        }
    /* antennas do not overlap: a UID answering in a new zone has left its old one, and the host must hear
     * it in that order (left, then arrived), whatever order the readers happen to be polled in */
    for (uint8_t other = 0; other < TAG_READERS; other++) {
        if (other == reader)
            continue;
        for (uint8_t *link = &heads[other]; *link != TAG_NONE; link = &slots[*link].next) {
            tag_slot_t *s = &slots[*link];
            if (s->uid_len == uid_len && !memcmp(s->uid, uid, uid_len)) {
                uint8_t moved = *link;
                *link = s->next;
                emit(other, 1, s->uid, s->uid_len);
                s->missed = 0;
                s->seen = 1;
                s->next = heads[reader];
                heads[reader] = moved;
                emit(reader, 0, uid, uid_len);
                return;
            }
        }
    }
    if (free_head == TAG_NONE) {
        dropped++; /* not remembered, so it is seen as new (and reported) once a slot frees */
        return;
    }
    uint8_t i = free_head;
    free_head = slots[i].next;
    memcpy(slots[i].uid, uid, uid_len);
    slots[i].uid_len = uid_len;
    slots[i].missed = 0;
    slots[i].seen = 1;
    slots[i].next = heads[reader];
    heads[reader] = i;
    present++;
    emit(reader, 0, uid, uid_len);
}

void tags_end_poll(uint8_t reader)
{
    if (reader >= TAG_READERS)
        return;
    uint8_t *link = &heads[reader];
    while (*link != TAG_NONE) {
        tag_slot_t *s = &slots[*link];
        if (s->seen) {
            s->seen = 0;
            s->missed = 0;
        } else if (++s->missed >= TAG_LEFT_POLLS) {
            uint8_t gone = *link;
            *link = s->next; /* unlink first: the event handler may look at the table */
            s->next = free_head;
            free_head = gone;
            present--;
            emit(reader, 1, s->uid, s->uid_len);
            continue;
        }
        link = &s->next;
    }
}

void tags_hold_poll(uint8_t reader)
{
    if (reader >= TAG_READERS)
        return;
    for (uint8_t i = heads[reader]; i != TAG_NONE; i = slots[i].next)
        slots[i].seen = 0; /* the poll proved who is there, not who is gone: no tag counts a miss */
}

void tags_inventory(void)
{
    for (uint8_t r = 0; r < TAG_READERS; r++)
        for (uint8_t i = heads[r]; i != TAG_NONE; i = slots[i].next)
            emit(r, 0, slots[i].uid, slots[i].uid_len);
}

uint16_t tags_present(void)
{
    return present;
}

uint16_t tags_dropped(void)
{
    return dropped;
}
