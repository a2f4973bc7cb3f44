/* text.h - small string helpers shared by the core's messages. */
#ifndef GPUPLAN_TEXT_H
#define GPUPLAN_TEXT_H

/* Levenshtein distance between a and b (insertions, deletions, substitutions), for "did
 * you mean"; strings of 128 bytes or more count as 1000 (never a suggestion). */
int text_edit_distance(const char *a, const char *b);

#endif
