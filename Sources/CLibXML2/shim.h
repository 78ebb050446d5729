#ifndef LARDER_CLIBXML2_SHIM_H
#define LARDER_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* libxml2's encoding.h pulls in the system ICU headers when built with ICU; they clash with
   Foundation's own copy of ICU (_FoundationICU) in any Swift file that imports both. Larder
   never touches the ICU members of xmlCharEncodingHandler, so leave them out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 sees as shared mutable state. */
static inline void larder_xmlFree(void *pointer) { xmlFree(pointer); }
#endif
