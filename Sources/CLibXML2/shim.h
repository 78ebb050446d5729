#ifndef LARDER_CLIBXML2_SHIM_H
#define LARDER_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU; encoding.h would then pull in the system ICU headers, whose
   enums clash with Foundation's bundled ICU in any Swift module that imports both. Larder never
   touches the fields those headers add (xmlCharEncodingHandler's converters), so leave them out. */
#undef LIBXML_ICU_ENABLED
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

/// The 1-based line and column, and the byte offset from the start of the input, of the '<' of
/// the start tag the push parser has just read (called from a startElementNs callback, when the
/// parser's cursor sits on the tag's '>' or "/>"). The column is 0 and the offset -1 when the
/// '<' is no longer in the parser's buffer.
static inline void larder_xml_start_tag_position(xmlParserCtxtPtr ctxt, int *line, int *column, long *offset) {
    *line = 0;
    *column = 0;
    *offset = -1;
    if (ctxt == NULL || ctxt->input == NULL) return;
    xmlParserInputPtr input = ctxt->input;
    *line = input->line;
    if (input->cur == NULL || input->base == NULL) return;
    const xmlChar *p = input->cur;
    int characters = 0, newlines = 0;
    while (p > input->base) {
        p--;
        if (*p == '<') break;
        if (*p == '\n') newlines++;
        if ((*p & 0xC0) != 0x80) characters++;
    }
    if (*p != '<') return;
    *offset = (long)input->consumed + (long)(p - input->base);
    if (newlines == 0) {
        *column = input->col - characters - 1;
        if (*column < 1) *column = 0;
        return;
    }
    /* The tag spans lines: count back from '<' to the previous newline. */
    *line = input->line - newlines;
    const xmlChar *q = p;
    int before = 0;
    while (q > input->base) {
        q--;
        if (*q == '\n') {
            *column = before + 1;
            return;
        }
        if ((*q & 0xC0) != 0x80) before++;
    }
}

/// The parser's current 1-based line and column, and its byte offset from the start of the input.
static inline void larder_xml_parser_position(xmlParserCtxtPtr ctxt, int *line, int *column, long *offset) {
    *line = 0;
    *column = 0;
    *offset = -1;
    if (ctxt == NULL || ctxt->input == NULL) return;
    *line = ctxt->input->line;
    *column = ctxt->input->col;
    if (ctxt->input->cur != NULL && ctxt->input->base != NULL)
        *offset = (long)ctxt->input->consumed + (long)(ctxt->input->cur - ctxt->input->base);
}

/// Whether libxml2 parses the input bytes as they are (UTF-8, no converter), so its offsets
/// are offsets into the raw input: 1 yes, 0 no, -1 unknown (the parser has been halted).
static inline int larder_xml_input_is_raw_utf8(xmlParserCtxtPtr ctxt) {
    if (ctxt == NULL || ctxt->input == NULL || ctxt->input->buf == NULL) return -1;
    return ctxt->input->buf->encoder == NULL ? 1 : 0;
}

/// Where libxml2's generic (unstructured, printf-style) messages go instead of stderr: `function`
/// gets each message, formatted, with `context`. libxml2 keeps the handler per thread.
typedef struct {
    void (*function)(void *context, const char *message);
    void *context;
} larder_xml_message_sink;

static inline void larder_xml_generic_message(void *ctx, const char *format, ...) {
    larder_xml_message_sink *sink = (larder_xml_message_sink *)ctx;
    if (sink == NULL || sink->function == NULL || format == NULL) return;
    char text[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    sink->function(sink->context, text);
}

/// Routes this thread's libxml2 generic messages (such as "Unimplemented block at
/// xmlschemas.c") to `sink`; with NULL they are dropped. Never back to stderr.
static inline void larder_xml_set_message_sink(larder_xml_message_sink *sink) {
    xmlSetGenericErrorFunc(sink, larder_xml_generic_message);
}

/* xmlFree is a global function pointer, which Swift 6 sees as shared mutable state. */
static inline void larder_xmlFree(void *pointer) { xmlFree(pointer); }
#endif
