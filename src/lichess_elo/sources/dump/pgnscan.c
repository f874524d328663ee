/* The header scanner of sources/dump/arrow.py in C (an optional extension: without a
 * compiler the numpy scanner there reads the same text the same way).
 *
 * scan(chunk, size, names, cap) reads the first `size` bytes of `chunk` (whole games of a
 * Lichess PGN) and returns (games, validity, offsets, data, ascii, plies): the values of the tags
 * `names` as one Arrow binary array of len(names) * games elements, tag by tag (element
 * t * games + g is tag t of game g, null when the game has no such tag line), as its three
 * buffers (offsets int32 when data is under 2 GiB, else int64), and whether every value
 * is ASCII (then valid UTF-8: Arrow need not check it). The rules are those of
 * dump_arrow.parse_chunk: lines end in "\n" (and a "\r" before it is dropped), a block of
 * lines between blank lines is a header block when its first line starts with "[", a tag
 * line is `[Name "value"]` whole, and the last line of a tag in a block gives its value.
 * The GIL is released while the text is read and while the buffers are filled.
 *
 * `plies` holds each game's plies, counted up to `cap` (a byte each): the movetext of a game is the text after its header block up to the next
 * header block; in it a `{` opens a comment and a `}` closes it (across lines, never past
 * the game), and outside comments the bytes other than " \t\r\n{}" form words. A word
 * holding a letter (A-Z, a-z) is a ply: a SAN move always holds one (a piece, a file, the
 * O of castling), a move number ("12.", "12..."), a NAG ("$1"), a glyph ("!?") and a
 * result ("1-0", "1/2-1/2", "*") none. A game stops being read at `cap` plies.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TAGS 64

typedef struct {
    Py_ssize_t begin; /* -1: no such tag line */
    Py_ssize_t len;
} Span;

typedef struct {
    int count;
    const char *name[MAX_TAGS];
    Py_ssize_t len[MAX_TAGS];
    int head[256]; /* the first tag whose name starts with a byte, -1 for none */
    int next[MAX_TAGS];
} Names;

typedef struct {
    Span *spans; /* games * names.count, game by game, into `values` */
    char *values; /* the values in the order read (copied while the line is in the cache) */
    Py_ssize_t used, cap; /* bytes of `values` written, allocated */
    Py_ssize_t games;
    Py_ssize_t room; /* games the spans have room for */
    Py_ssize_t data; /* bytes of all the values */
    Py_ssize_t nulls;
    unsigned char *plies; /* each game's plies, up to the cap */
} Found;

/* The tag `[Name "value"]` of a line (without its "\n" and "\r"): its index, -1 if none. */
static int
tag_line(const Names *names, const char *line, Py_ssize_t n, Span *span)
{
    if (n < 6) { /* '[', a name of a byte, ' "', '"]' */
        return -1;
    }
    for (int t = names->head[(unsigned char)line[1]]; t >= 0; t = names->next[t]) {
        Py_ssize_t k = names->len[t];
        if (n < k + 5 || line[k + 1] != ' ' || line[k + 2] != '"' || line[n - 2] != '"' ||
            line[n - 1] != ']' || memcmp(line + 1, names->name[t], (size_t)k) != 0) {
            continue;
        }
        span->begin = k + 3;
        span->len = n - k - 5;
        return t;
    }
    return -1;
}

/* Room for one more game (its tags null); 0 when memory ran out. */
static int
new_game(Found *found, int count)
{
    if (found->games == found->room) {
        Py_ssize_t room = found->room ? 2 * found->room : 1024;
        Span *grown = realloc(found->spans, (size_t)room * (size_t)count * sizeof(Span));
        if (grown == NULL) {
            return 0;
        }
        found->spans = grown;
        unsigned char *plies = realloc(found->plies, (size_t)room);
        if (plies == NULL) {
            return 0;
        }
        found->plies = plies;
        found->room = room;
    }
    Span *row = found->spans + found->games * count;
    for (int t = 0; t < count; t++) {
        row[t].begin = -1;
        row[t].len = 0;
    }
    found->plies[found->games] = 0;
    found->games++;
    return 1;
}

/* Copy a value to the end of `found->values`; 0 when memory ran out. */
static int
keep(Found *found, const char *value, Py_ssize_t len, Span *slot)
{
    if (found->used + len > found->cap) {
        Py_ssize_t cap = found->cap ? 2 * found->cap : 1 << 20;
        while (cap < found->used + len) {
            cap *= 2;
        }
        char *grown = realloc(found->values, (size_t)cap);
        if (grown == NULL) {
            return 0;
        }
        found->values = grown;
        found->cap = cap;
    }
    if (len > 0) { /* an empty value: no copy (memcpy from or to NULL is undefined) */
        memcpy(found->values + found->used, value, (size_t)len);
    }
    slot->begin = found->used;
    slot->len = len;
    found->used += len;
    return 1;
}

/* The kind of each byte in movetext, for count_plies. */
enum { WORD = 0, LETTER, SPACE, OPEN, CLOSE };
static unsigned char kinds[256];

static void
init_kinds(void)
{
    for (int c = 'a'; c <= 'z'; c++) {
        kinds[c] = LETTER;
        kinds[c - 'a' + 'A'] = LETTER;
    }
    kinds[' '] = kinds['\t'] = kinds['\r'] = kinds['\n'] = SPACE;
    kinds['{'] = OPEN;
    kinds['}'] = CLOSE;
}

/* Count the plies of a line of movetext (without its "\n") into `*plies`, up to `cap`;
 * `*comment`: whether a `{` comment is open, before the line and after it. */
static void
count_plies(const char *line, Py_ssize_t n, int cap, unsigned char *plies, int *comment)
{
    int counted = 0; /* the word being read holds a letter already counted */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (*comment) { /* to its "}" (memchr: a clock comment is 18 bytes) */
            const char *close = memchr(line + i, '}', (size_t)(n - i));
            if (close == NULL) {
                return;
            }
            *comment = 0;
            i = close - line;
            continue;
        }
        unsigned char kind = kinds[(unsigned char)line[i]];
        if (kind == LETTER) {
            if (!counted) {
                counted = 1;
                if (++*plies >= cap) {
                    return;
                }
            }
        } else if (kind != WORD) {
            *comment = kind == OPEN;
            counted = 0;
        }
    }
}

/* Read the text into `found` (no Python calls: run without the GIL); 0 when out of memory. */
static int
read_text(const char *text, Py_ssize_t size, const Names *names, int cap, Found *found)
{
    int in_block = 0, header = 0, count = names->count, comment = 0;
    Py_ssize_t at = 0;
    while (at < size) {
        const char *nl = memchr(text + at, '\n', (size_t)(size - at));
        Py_ssize_t end = nl ? nl - text : size;
        Py_ssize_t n = end - at;
        if (n > 0 && text[end - 1] == '\r') {
            n--;
        }
        if (n == 0) {
            in_block = 0;
        } else {
            if (!in_block) {
                in_block = 1;
                header = text[at] == '[';
                if (header) {
                    if (!new_game(found, count)) {
                        return 0;
                    }
                    comment = 0;
                }
            }
            if (!header) {
                if (found->games > 0 && found->plies[found->games - 1] < cap) {
                    count_plies(text + at, n, cap, found->plies + found->games - 1, &comment);
                }
                at = end + 1;
                continue;
            }
            Span span;
            int t;
            if (text[at] == '[' && (t = tag_line(names, text + at, n, &span)) >= 0) {
                Span *slot = found->spans + (found->games - 1) * count + t;
                if (!keep(found, text + at + span.begin, span.len, slot)) {
                    return 0;
                }
            }
        }
        at = end + 1;
    }
    for (Py_ssize_t i = 0; i < found->games * count; i++) {
        if (found->spans[i].begin < 0) {
            found->nulls++;
        } else {
            found->data += found->spans[i].len;
        }
    }
    return 1;
}

/* The Arrow buffers of the values, tag by tag (no Python calls). */
static void
fill(const Found *found, int count, int wide, uint8_t *valid, char *offsets,
     char *data)
{
    Py_ssize_t i = 0, pos = 0;
    memset(valid, 0, (size_t)((found->games * count + 7) / 8));
    for (int t = 0; t < count; t++) {
        for (Py_ssize_t g = 0; g < found->games; g++, i++) {
            const Span *span = found->spans + g * count + t;
            if (wide) {
                ((int64_t *)offsets)[i] = (int64_t)pos;
            } else {
                ((int32_t *)offsets)[i] = (int32_t)pos;
            }
            if (span->begin >= 0) {
                valid[i >> 3] |= (uint8_t)(1u << (i & 7));
                if (span->len > 0) { /* the buffers are NULL while every value is empty */
                    memcpy(data + pos, found->values + span->begin, (size_t)span->len);
                    pos += span->len;
                }
            }
        }
    }
    if (wide) {
        ((int64_t *)offsets)[i] = (int64_t)pos;
    } else {
        ((int32_t *)offsets)[i] = (int32_t)pos;
    }
}

/* The names (a tuple of str) as a lookup by their first byte; 0 with an exception set. */
static int
read_names(PyObject *tuple, Names *names)
{
    Py_ssize_t count = PyTuple_GET_SIZE(tuple);
    if (count < 1 || count > MAX_TAGS) {
        PyErr_SetString(PyExc_ValueError, "1 to 64 tag names");
        return 0;
    }
    names->count = (int)count;
    memset(names->head, -1, sizeof(names->head));
    for (int t = (int)count - 1; t >= 0; t--) {
        Py_ssize_t len;
        const char *name = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(tuple, t), &len);
        if (name == NULL) {
            return 0;
        }
        if (len < 1 || memchr(name, ' ', (size_t)len) != NULL) {
            PyErr_SetString(PyExc_ValueError, "a tag name: at least 1 byte, no space");
            return 0;
        }
        names->name[t] = name;
        names->len[t] = len;
        names->next[t] = names->head[(unsigned char)name[0]];
        names->head[(unsigned char)name[0]] = t;
    }
    return 1;
}

/* Whether the `len` bytes at `data` are all ASCII (then valid UTF-8). */
static int
ascii(const char *data, Py_ssize_t len)
{
    uint64_t any = 0, word;
    Py_ssize_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&word, data + i, 8);
        any |= word;
    }
    for (; i < len; i++) {
        any |= (unsigned char)data[i];
    }
    return (any & 0x8080808080808080ull) == 0;
}

/* The tuple (games, validity, offsets, data, ascii, plies) of what `found` holds. */
static PyObject *
buffers(const Found *found, int count)
{
    Py_ssize_t n = found->games * count;
    int wide = found->data >= ((Py_ssize_t)1 << 31);
    PyObject *valid = PyBytes_FromStringAndSize(NULL, (n + 7) / 8);
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (wide ? 8 : 4));
    PyObject *data = PyBytes_FromStringAndSize(NULL, found->data);
    PyObject *plies = PyBytes_FromStringAndSize(NULL, found->games);
    if (valid == NULL || offsets == NULL || data == NULL || plies == NULL) {
        Py_XDECREF(valid);
        Py_XDECREF(offsets);
        Py_XDECREF(data);
        Py_XDECREF(plies);
        return NULL;
    }
    if (found->games > 0) { /* memcpy from NULL (no game: no array) is undefined */
        memcpy(PyBytes_AS_STRING(plies), found->plies, (size_t)found->games);
    }
    uint8_t *v = (uint8_t *)PyBytes_AS_STRING(valid);
    char *o = PyBytes_AS_STRING(offsets), *d = PyBytes_AS_STRING(data);
    int plain;
    Py_BEGIN_ALLOW_THREADS
    fill(found, count, wide, v, o, d);
    plain = ascii(d, found->data);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("nNNNON", found->games, valid, offsets, data,
                         plain ? Py_True : Py_False, plies);
}

static PyObject *
scan(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer chunk;
    Py_ssize_t size;
    PyObject *tuple;
    int cap;
    Names names;
    Found found = {NULL, NULL, 0, 0, 0, 0, 0, 0, NULL};
    if (!PyArg_ParseTuple(args, "y*nO!i:scan", &chunk, &size, &PyTuple_Type, &tuple, &cap)) {
        return NULL;
    }
    PyObject *out = NULL;
    if (size < 0 || size > chunk.len) {
        PyErr_SetString(PyExc_ValueError, "size: 0 to the length of the chunk");
    } else if (cap < 0 || cap > 255) {
        PyErr_SetString(PyExc_ValueError, "cap: 0 to 255 plies");
    } else if (read_names(tuple, &names)) {
        int ok;
        Py_BEGIN_ALLOW_THREADS
        ok = read_text((const char *)chunk.buf, size, &names, cap, &found);
        Py_END_ALLOW_THREADS
        out = ok ? buffers(&found, names.count) : PyErr_NoMemory();
    }
    free(found.spans);
    free(found.values);
    free(found.plies);
    PyBuffer_Release(&chunk);
    return out;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(chunk, size, names, cap) -> (games, validity, offsets, data, ascii, plies): the "
     "values of the tags `names` in the first `size` bytes of `chunk`, as an Arrow binary "
     "array's buffers, whether they are all ASCII, and each game's plies up to `cap` (a "
     "byte each)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pgnscan", "The PGN header scanner of dump_arrow, in C.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit_pgnscan(void)
{
    init_kinds();
    return PyModule_Create(&module);
}
