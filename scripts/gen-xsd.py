#!/usr/bin/env python3
"""Generates Schemas/<type>/v<N>.xsd from the JSON Schema beside it.

Larder's XML layout is <records schema="T" version="N"><T>...</T></records> with one element per
field and repeated elements for lists. The XSD checks element names, value types, facets and enums;
an object whose fields are all scalars uses xs:all (so required fields and "at most once" are
checked), an object with list fields uses an unbounded xs:choice (XSD 1.0 cannot express "these
elements in any order, some repeated"), so for records the JSON Schema's required list is checked
on the JSON side only. Run: python3 scripts/gen-xsd.py  (rewrites every .xsd under Schemas/).

Every XSD accepts what Larder's XML writer writes: a null is `<f xsi:nil="true"/>` (every element is
nillable) and an empty list `<f larder:empty="true"/>`. A list's element therefore allows attributes
in the `urn:larder:xml` namespace (xs:anyAttribute, skipped: the XSD stays one file) and empty
content: a list of scalars takes the union of the item type and the empty string, a list of
objects makes its xs:all optional as a whole (`<xs:all minOccurs="0">`: either empty, or with every
required child). XSD 1.0 cannot tie the empty content to the attribute, so `<tags/>` without it
passes here and is refused by the JSON Schema check. An object without declared members
(`extras`) takes any child elements, unchecked.
"""
import json, os, sys
from xml.sax.saxutils import quoteattr

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Schemas")

def resolve(schema, node):
    if "$ref" in node:
        name = node["$ref"].split("/")[-1]
        merged = dict(schema["$defs"][name]); merged.update({k: v for k, v in node.items() if k != "$ref"})
        return resolve(schema, merged)
    if "allOf" in node and len(node["allOf"]) == 1:
        merged = dict(resolve(schema, node["allOf"][0])); merged.update({k: v for k, v in node.items() if k != "allOf"})
        return merged
    if "oneOf" in node:
        alts = [resolve(schema, a) for a in node["oneOf"] if a.get("type") != "null"]
        if len(alts) == 1:
            merged = dict(alts[0]); merged.update({k: v for k, v in node.items() if k != "oneOf"})
            return merged
    return node

def types_of(node):
    t = node.get("type")
    if t is None:
        if "enum" in node: return ["enum"]
        return []
    ts = t if isinstance(t, list) else [t]
    return [x for x in ts if x != "null"]

class Gen:
    def __init__(self, schema, type_name):
        self.schema, self.type_name, self.simple, self.complex = schema, type_name, {}, {}

    def simple_type(self, node, hint):
        """Returns a type name (xs:... or a named simpleType) for a scalar node."""
        if "enum" in node:
            name = hint + "Value"
            body = "".join('      <xs:enumeration value=%s/>\n' % quoteattr(str(v)) for v in node["enum"])
            self.simple[name] = '  <xs:simpleType name="%s">\n    <xs:restriction base="xs:string">\n%s    </xs:restriction>\n  </xs:simpleType>\n' % (name, body)
            return name
        t = (types_of(node) or ["string"])[0]
        facets = []
        if t == "string":
            fmt = node.get("format")
            if fmt == "date-time":
                return "timestamp"
            if fmt == "uri": base = "xs:anyURI"
            else: base = "xs:string"
            if fmt == "uuid":
                facets.append('<xs:pattern value="[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"/>')
            if "minLength" in node: facets.append('<xs:minLength value="%d"/>' % node["minLength"])
            if "maxLength" in node: facets.append('<xs:maxLength value="%d"/>' % node["maxLength"])
            if "pattern" in node:
                p = node["pattern"]
                if p.startswith("^"): p = p[1:]
                if p.endswith("$"): p = p[:-1]
                facets.append('<xs:pattern value=%s/>' % quoteattr(p))
        elif t in ("integer", "number"):
            base = "xs:long" if t == "integer" else "xs:double"
            for key, facet in (("minimum", "minInclusive"), ("maximum", "maxInclusive"),
                               ("exclusiveMinimum", "minExclusive"), ("exclusiveMaximum", "maxExclusive")):
                if key in node: facets.append('<xs:%s value="%s"/>' % (facet, node[key]))
        elif t == "boolean":
            base = "xs:boolean"
        else:
            base = "xs:string"
        if not facets: return base
        name = hint + "Value"
        body = "".join("      %s\n" % f for f in facets)
        self.simple[name] = '  <xs:simpleType name="%s">\n    <xs:restriction base="%s">\n%s    </xs:restriction>\n  </xs:simpleType>\n' % (name, base, body)
        return name

    def list_item_type(self, scalar, name):
        """The type of a list element holding a scalar: the scalar or nothing, plus larder:* attributes."""
        union = name + "OrEmpty"
        self.simple[union] = '  <xs:simpleType name="%s">\n    <xs:union memberTypes="%s larderEmpty"/>\n  </xs:simpleType>\n' % (union, scalar)
        self.complex[name] = ('  <xs:complexType name="%s">\n    <xs:simpleContent>\n      <xs:extension base="%s">\n'
                              '        <xs:anyAttribute namespace="urn:larder:xml" processContents="skip"/>\n'
                              '      </xs:extension>\n    </xs:simpleContent>\n  </xs:complexType>\n') % (name, union)
        return name

    def open_object_type(self, name):
        """An object whose members are not declared (extras): any children, unchecked."""
        self.complex[name] = ('  <xs:complexType name="%s">\n    <xs:sequence>\n'
                              '      <xs:any minOccurs="0" maxOccurs="unbounded" processContents="skip"/>\n'
                              '    </xs:sequence>\n    <xs:anyAttribute namespace="urn:larder:xml" processContents="skip"/>\n'
                              '  </xs:complexType>\n') % name
        return name

    def object_type(self, node, name, list_item=False):
        props = node.get("properties", {})
        if not props:
            return self.open_object_type(name)
        required = set(node.get("required", []))
        for alt in node.get("anyOf", []):
            pass  # alternatives (live record or tombstone) are checked by the JSON Schema
        elements, has_list = [], False
        for key, raw in props.items():
            sub = resolve(self.schema, raw)
            ts = types_of(sub)
            nullable = "null" in (sub.get("type") if isinstance(sub.get("type"), list) else [sub.get("type")]) or "oneOf" in raw
            if "array" in ts:
                has_list = True
                item = resolve(self.schema, sub.get("items", {}))
                if "object" in types_of(item):
                    tname = self.object_type(item, name + key[0].upper() + key[1:], list_item=True)
                else:
                    scalar = self.simple_type(item, name + key[0].upper() + key[1:])
                    tname = self.list_item_type(scalar, name + key[0].upper() + key[1:] + "Item")
                elements.append((key, tname, False, True))
            elif "object" in ts:
                tname = self.object_type(sub, name + key[0].upper() + key[1:])
                elements.append((key, tname, key in required, False))
            else:
                tname = self.simple_type(sub, name + key[0].upper() + key[1:])
                elements.append((key, tname, key in required, False))
        lines = []
        if has_list:
            lines.append('    <xs:choice minOccurs="0" maxOccurs="unbounded">')
            for key, tname, _, _ in elements:
                lines.append('      <xs:element name="%s" type="%s" nillable="true"/>' % (key, tname))
            lines.append('    </xs:choice>')
        else:
            # A list element may be empty (larder:empty), so its whole group is optional.
            lines.append('    <xs:all minOccurs="0">' if list_item else '    <xs:all>')
            for key, tname, req, _ in elements:
                lines.append('      <xs:element name="%s" type="%s"%s nillable="true"/>' % (key, tname, "" if req else ' minOccurs="0"'))
            lines.append('    </xs:all>')
        if list_item:
            lines.append('    <xs:anyAttribute namespace="urn:larder:xml" processContents="skip"/>')
        self.complex[name] = '  <xs:complexType name="%s">\n%s\n  </xs:complexType>\n' % (name, "\n".join(lines))
        return name

def generate(path, type_name, version):
    with open(path) as f: schema = json.load(f)
    g = Gen(schema, type_name)
    g.object_type(schema, type_name)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<!-- %s v%d for XML data. Generated from v%d.schema.json by scripts/gen-xsd.py: edit the JSON Schema, then rerun. -->' % (type_name, version, version),
           '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified">',
           '  <xs:element name="records">', '    <xs:complexType>', '      <xs:sequence>',
           '        <xs:element name="%s" type="%s" minOccurs="0" maxOccurs="unbounded"/>' % (type_name, type_name),
           '      </xs:sequence>',
           '      <xs:attribute name="schema" type="xs:string" fixed="%s"/>' % type_name,
           '      <xs:attribute name="version" type="xs:integer" fixed="%d"/>' % version,
           '    </xs:complexType>', '  </xs:element>',
           '  <xs:simpleType name="timestamp">', '    <xs:restriction base="xs:dateTime">',
           '      <xs:pattern value=".+T.+(Z|[+\\-][0-9]{2}:[0-9]{2})"/>', '    </xs:restriction>', '  </xs:simpleType>',
           '  <xs:simpleType name="larderEmpty">', '    <xs:restriction base="xs:string">',
           '      <xs:length value="0"/>', '    </xs:restriction>', '  </xs:simpleType>']
    text = "\n".join(out) + "\n" + "".join(g.complex[k] for k in sorted(g.complex)) + "".join(g.simple[k] for k in sorted(g.simple)) + "</xs:schema>\n"
    with open(path.replace(".schema.json", ".xsd"), "w") as f: f.write(text)

for type_name in sorted(os.listdir(ROOT)):
    folder = os.path.join(ROOT, type_name)
    if not os.path.isdir(folder): continue
    for file in sorted(os.listdir(folder)):
        if file.endswith(".schema.json"):
            generate(os.path.join(folder, file), type_name, int(file[1:].split(".")[0]))
print("xsd files written", file=sys.stderr)
