#include <unicode/ucol.h>
#include <unicode/ucoleitr.h>
#include <unicode/ulocdata.h>
#include <unicode/uset.h>

// ICU's C functions carry its version in their names (ucol_open is a macro for ucol_open_72),
// which Swift cannot call through the macro: these wrappers take the name the headers give.

static inline UCollator *sitegen_ucol_open(const char *locale, UErrorCode *status) {
    return ucol_open(locale, status);
}

static inline void sitegen_ucol_close(UCollator *collator) {
    ucol_close(collator);
}

static inline void sitegen_ucol_setAttribute(
    UCollator *collator, UColAttribute attribute, UColAttributeValue value, UErrorCode *status) {
    ucol_setAttribute(collator, attribute, value, status);
}

static inline int32_t sitegen_ucol_getSortKey(
    const UCollator *collator, const UChar *text, int32_t length, uint8_t *result, int32_t capacity) {
    return ucol_getSortKey(collator, text, length, result, capacity);
}

// The primary weight of the first collation element of `text` that has one (letters; not
// accents or ignorable characters), or 0 when none has. The iterator gives each element as one
// or two 32-bit halves, the second marked as a continuation (its low byte 0xC0 or more): the
// weight is the first half's 16 bits followed by the second's.
static inline uint64_t sitegen_ucol_firstPrimary(
    const UCollator *collator, const UChar *text, int32_t length, UErrorCode *status) {
    UCollationElements *elements = ucol_openElements(collator, text, length, status);
    if (elements == NULL || U_FAILURE(*status)) {
        if (elements != NULL) ucol_closeElements(elements);
        return 0;
    }
    uint64_t primary = 0;
    for (;;) {
        int32_t element = ucol_next(elements, status);
        if (element == UCOL_NULLORDER || U_FAILURE(*status)) break;
        uint32_t first = (uint32_t)ucol_primaryOrder(element);
        if (first == 0) continue;
        primary = (uint64_t)first << 16;
        int32_t second = ucol_next(elements, status);
        if (second != UCOL_NULLORDER && U_SUCCESS(*status) && (second & 0xC0) == 0xC0) {
            primary |= (uint32_t)ucol_primaryOrder(second);
        }
        break;
    }
    ucol_closeElements(elements);
    return primary;
}

// The locale's index characters (the headings of an alphabetical index: A to Z in English,
// with Å Ä Ö in Swedish), as a set, or NULL. The caller closes it with sitegen_uset_close.
static inline USet *sitegen_index_characters(const char *locale, UErrorCode *status) {
    ULocaleData *data = ulocdata_open(locale, status);
    if (data == NULL || U_FAILURE(*status)) {
        if (data != NULL) ulocdata_close(data);
        return NULL;
    }
    USet *set = ulocdata_getExemplarSet(data, NULL, 0, ULOCDATA_ES_INDEX, status);
    ulocdata_close(data);
    if (U_FAILURE(*status)) {
        if (set != NULL) uset_close(set);
        return NULL;
    }
    return set;
}

static inline void sitegen_uset_close(USet *set) {
    uset_close(set);
}

// How many code points and strings the set holds, and item `index` of them: a range of code
// points (the return value 0, `start` and `end` set) or a string (its length in `text`).
static inline int32_t sitegen_uset_getItemCount(const USet *set) {
    return uset_getItemCount(set);
}

static inline int32_t sitegen_uset_getItem(
    const USet *set, int32_t index, UChar32 *start, UChar32 *end, UChar *text, int32_t capacity,
    UErrorCode *status) {
    return uset_getItem(set, index, start, end, text, capacity, status);
}
