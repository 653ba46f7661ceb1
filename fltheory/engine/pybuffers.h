/* float64 arrays through the buffer protocol, for the C extensions (no numpy headers needed):
 * get_doubles takes a C-contiguous float64 buffer of a given length, release gives a set back.
 * Included by fltheory/papers/committee/_native.c and fltheory/papers/glm/_native.c. */
#ifndef FLTHEORY_PYBUFFERS_H
#define FLTHEORY_PYBUFFERS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int held;
} buffer;

/* A C-contiguous float64 buffer of ``len`` values (len < 0: any length) named ``name``. */
static int get_doubles(PyObject *obj, Py_ssize_t len, int writable, buffer *b, const char *name)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &b->view, flags) < 0)
        return -1;
    b->held = 1;
    const char *fmt = b->view.format;
    size_t fl = fmt == NULL ? 0 : strlen(fmt);
    if (b->view.itemsize != 8 || fl == 0 || fmt[fl - 1] != 'd') {
        PyErr_Format(PyExc_TypeError, "%s: expected float64 values", name);
        return -1;
    }
    if (len >= 0 && b->view.len != len * 8) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values, got %zd", name, len,
                     b->view.len / 8);
        return -1;
    }
    return 0;
}

static void release(buffer *bs, int count)
{
    for (int i = 0; i < count; i++)
        if (bs[i].held) {
            PyBuffer_Release(&bs[i].view);
            bs[i].held = 0;
        }
}

#endif
