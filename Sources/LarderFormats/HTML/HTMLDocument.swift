internal import CLibXML2
import LarderCore

/// One element of an HTML page: its lower-case name, its attributes and its children.
package struct HTMLElement: Sendable {
    /// The lower-case tag name (`div`, `li`).
    package var name: String
    /// The attributes in source order, names lower-case.
    package var attributes: [(name: String, value: String)]
    /// The element and text children in document order.
    package var children: [HTMLNode]

    /// Creates an element.
    package init(name: String, attributes: [(name: String, value: String)] = [], children: [HTMLNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The value of attribute `name` (lower-case), or `nil`.
    package subscript(attribute name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The element's class names.
    package var classes: [Substring] {
        (self[attribute: "class"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
    }

    /// The child elements.
    package var elements: [HTMLElement] {
        children.compactMap { if case .element(let e) = $0 { e } else { nil } }
    }
}

/// A node of an ``HTMLDocument``: an element or a run of text (entities already decoded).
package enum HTMLNode: Sendable {
    /// An element.
    case element(HTMLElement)
    /// Text, as the page has it (whitespace not collapsed).
    case text(String)
}

/// Reads a whole HTML page into a tree with libxml2's forgiving HTML parser.
///
/// Buffers the page (the caller caps its size) and the tree; unclosed tags, stray end tags
/// and other real-page damage are repaired the way libxml2 does. Comments and processing
/// instructions are dropped; `script` and `style` keep their text.
package enum HTMLDocument {
    /// The deepest element nesting kept; deeper elements are dropped.
    package static let maxDepth = 256

    /// Parses UTF-8 `bytes` (any declared charset is ignored: transcode first).
    ///
    /// - Parameters:
    ///   - bytes: the page, UTF-8.
    ///   - name: the file name, for the error.
    /// - Returns: the root element (`html`), or an empty `html` element for a page with no elements.
    /// - Throws: ``LarderError`` `malformed-record` when libxml2 builds no document at all.
    package static func parse(_ bytes: [UInt8], name: String) throws -> HTMLElement {
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_IGNORE_ENC.rawValue)
        _ = libxml2Initialised
        larder_xml_set_message_sink(nil)
        let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(clamping: buffer.count), nil, "UTF-8", options)
                }
            }
        }
        guard let document else {
            if bytes.isEmpty { return HTMLElement(name: "html") }
            throw LarderError(
                .malformedRecord, "libxml2 could not read the page as HTML", location: SourceLocation(file: name))
        }
        defer { xmlFreeDoc(document) }
        var root = HTMLElement(name: "html")
        var child = document.pointee.children
        while let node = child {
            if let converted = convert(node, depth: 0) {
                if case .element(let e) = converted, e.name == "html" {
                    root.attributes = e.attributes
                    root.children += e.children
                } else {
                    root.children.append(converted)
                }
            }
            child = node.pointee.next
        }
        return root
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func convert(_ node: xmlNodePtr, depth: Int) -> HTMLNode? {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            return .text(string(node.pointee.content))
        case XML_ELEMENT_NODE:
            guard depth < maxDepth else { return nil }
            var element = HTMLElement(name: string(node.pointee.name).lowercased())
            var attribute = node.pointee.properties
            while let a = attribute {
                var value = ""
                var text = a.pointee.children
                while let t = text {
                    value += string(t.pointee.content)
                    text = t.pointee.next
                }
                element.attributes.append((string(a.pointee.name).lowercased(), value))
                attribute = a.pointee.next
            }
            var child = node.pointee.children
            while let c = child {
                if let converted = convert(c, depth: depth + 1) { element.children.append(converted) }
                child = c.pointee.next
            }
            return .element(element)
        default:
            return nil
        }
    }
}
