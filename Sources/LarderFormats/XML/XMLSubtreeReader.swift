internal import CLibXML2
import LarderCore

/// A small element tree: one record element and what it holds (a RecipeML `<recipe>`).
package final class XMLElementNode {
    /// The element's local name, lower-cased (RecipeML files vary in case).
    package let name: String
    package var attributes: [String: String] = [:]
    package var children: [XMLElementNode] = []
    /// The text directly inside the element, in document order, with child elements' text left out.
    package var ownText = ""
    /// The line the element's start tag is on.
    package let line: Int

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }

    /// The first child named `name`.
    package func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// All children named `name`.
    package func children(_ name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The text inside the element, children included, in document order (not normalized).
    package var allText: String {
        var parts: [String] = []
        collectText(into: &parts)
        return parts.joined(separator: " ")
    }

    private func collectText(into parts: inout [String]) {
        parts.append(ownText)
        for child in children { child.collectText(into: &parts) }
    }
}

/// Reads XML with libxml2's `xmlTextReader`, handing over one subtree at a time for the
/// elements named in `recordElements` (RecipeML's `<recipe>`): memory stays bounded by one
/// recipe, whatever the file's size.
///
/// The encoding comes from the XML declaration (ISO-8859-1 and the rest libxml2 knows); no
/// DTD or other external resource is ever fetched (`XML_PARSE_NONET`, no `DTDLOAD`), and
/// entities are not substituted, so entity-expansion bombs cannot grow.
package final class XMLSubtreeReader {
    private final class Input {
        let source: any ByteSource
        var error: (any Error)?
        init(_ source: any ByteSource) { self.source = source }
    }

    private let reader: xmlTextReaderPtr
    private let input: Input
    private let retained: Unmanaged<Input>
    private let recordElements: Set<String>
    package let name: String
    /// The root element's name, once seen.
    package private(set) var rootName: String?

    package init(source: any ByteSource, recordElements: Set<String>) throws {
        name = source.name
        input = Input(source)
        retained = Unmanaged.passRetained(input)
        self.recordElements = recordElements
        let read: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            let input = Unmanaged<Input>.fromOpaque(context).takeUnretainedValue()
            do {
                return Int32(
                    try input.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
            } catch {
                input.error = error
                return -1
            }
        }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOCDATA.rawValue)
        guard let reader = xmlReaderForIO(read, nil, retained.toOpaque(), nil, nil, options) else {
            retained.release()
            throw LarderError(.io, "libxml2 could not start reading", location: SourceLocation(file: source.name))
        }
        self.reader = reader
    }

    deinit {
        xmlFreeTextReader(reader)
        retained.release()
    }

    private func failure() -> LarderError {
        if let error = input.error as? LarderError { return error }
        let line = Int(xmlTextReaderGetParserLineNumber(reader))
        let column = Int(xmlTextReaderGetParserColumnNumber(reader))
        var message = "not well-formed XML"
        if let last = xmlGetLastError(), let text = last.pointee.message {
            message = String(cString: text).trimmingWhitespace
        }
        return LarderError(.syntax, message, location: SourceLocation(file: name, line: line, column: column))
    }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The next record element's subtree, or `nil` at the end of the document.
    /// - Throws: ``LarderError`` `syntax-error` with line and column for malformed XML.
    package func nextRecord() throws -> XMLElementNode? {
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { return nil }
            guard status == 1 else { throw failure() }
            guard xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) else { continue }
            let name = string(xmlTextReaderConstLocalName(reader)).lowercased()
            if rootName == nil { rootName = name }
            if recordElements.contains(name) { return try readSubtree() }
        }
    }

    /// The line of the start tag the reader is on: the node's own line, which libxml2 records as
    /// it builds the node (the parser's line is wherever it has read ahead to); the parser's line
    /// when the node has none, or one past libxml2's 16-bit cap.
    private func elementLine() -> Int {
        let line = xmlTextReaderCurrentNode(reader).map { Int(xmlGetLineNo($0)) } ?? 0
        return line > 0 && line < 65535 ? line : Int(xmlTextReaderGetParserLineNumber(reader))
    }

    /// Reads the element the reader is on, with everything inside it.
    private func readSubtree() throws -> XMLElementNode {
        let root = element()
        if xmlTextReaderIsEmptyElement(reader) == 1 { return root }
        var stack = [root]
        while let current = stack.last {
            let status = xmlTextReaderRead(reader)
            guard status == 1 else {
                throw status == 0
                    ? LarderError(
                        .syntax, "the document ends inside <\(root.name)>", location: SourceLocation(file: name))
                    : failure()
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                let child = element()
                current.children.append(child)
                if xmlTextReaderIsEmptyElement(reader) != 1 { stack.append(child) }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                stack.removeLast()
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
                Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue),
                Int32(XML_READER_TYPE_WHITESPACE.rawValue):
                current.ownText += string(xmlTextReaderConstValue(reader))
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                // An entity the document declared itself: kept as written, never expanded.
                current.ownText += "&" + string(xmlTextReaderConstName(reader)) + ";"
            default:
                break
            }
        }
        return root
    }

    private func element() -> XMLElementNode {
        let node = XMLElementNode(name: string(xmlTextReaderConstLocalName(reader)).lowercased(), line: elementLine())
        if xmlTextReaderHasAttributes(reader) == 1 {
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                node.attributes[string(xmlTextReaderConstLocalName(reader)).lowercased()] = string(
                    xmlTextReaderConstValue(reader))
            }
            xmlTextReaderMoveToElement(reader)
        }
        return node
    }
}
