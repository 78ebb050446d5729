import CLibXML2
import Foundation
public import LarderCore

/// Validates XML record files against an XSD with libxml2's schema validation while streaming
/// (`xmlTextReaderSetSchema` on an `xmlTextReader`): memory stays flat whatever the file size.
///
/// Input goes through Larder's byte sources, so gzip and standard input work as elsewhere.
/// External entities and network access are refused.
public enum XSDValidator {
    /// What a validation found.
    public struct Result: Sendable {
        /// Record elements seen (children of the root).
        public var records: Int
        /// The problems, each with file, line, column and record index.
        public var errors: [LarderError]
        /// The root's `schema` attribute.
        public var declaredSchema: String?
        /// The root's `version` attribute.
        public var declaredVersion: Int?

        /// Whether the file is valid.
        public var isValid: Bool { errors.isEmpty }
    }

    /// Validates `path` (`-`: standard input) against the XSD text `xsd`.
    /// - Parameters:
    ///   - path: the XML file, possibly compressed; `-` reads standard input.
    ///   - xsd: the XSD's text.
    ///   - xsdName: the XSD's name for messages.
    ///   - limit: stop collecting after this many errors.
    /// - Returns: the number of records seen, the problems found (a document that is not well-formed
    ///   is one of them), and the root's `schema` and `version` attributes.
    /// - Throws: ``LarderError`` `schema-error` when the XSD itself does not compile, `io-error`
    ///   when the file cannot be read.
    public static func validate(path: String, xsd: String, xsdName: String, limit: Int = 100) throws -> Result {
        let schema = try compile(xsd, name: xsdName)
        defer { xmlSchemaFree(schema) }
        return try read(path: path, schema: schema, limit: limit)
    }

    /// The root element's `schema` and `version` attributes, reading only the start of the file.
    public static func declaredHeader(path: String) throws -> (schema: String?, version: Int?) {
        let result = try read(path: path, schema: nil, limit: 1, stopAfterRoot: true)
        return (result.declaredSchema, result.declaredVersion)
    }

    private static func compile(_ xsd: String, name: String) throws -> xmlSchemaPtr {
        larder_xml_set_message_sink(nil)  // libxml2's generic messages never reach stderr
        let collector = ErrorCollector(name: name, limit: 5)
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        var bytes = Array(xsd.utf8)
        let parser = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlSchemaNewMemParserCtxt($0, Int32(buffer.count))
                }
            } ?? nil
        }
        guard let parser else { throw LarderError(.schema, "\(name): cannot create an XSD parser") }
        defer { xmlSchemaFreeParserCtxt(parser) }
        xmlSchemaSetParserStructuredErrors(parser, structuredError, box.toOpaque())
        guard let schema = xmlSchemaParse(parser) else {
            let detail = collector.errors.first?.message ?? "not a valid XSD"
            throw LarderError(.schema, "\(name): \(detail)")
        }
        return schema
    }

    private static func read(path: String, schema: xmlSchemaPtr?, limit: Int, stopAfterRoot: Bool = false) throws
        -> Result
    {
        let raw: any ByteSource = path == "-" ? try FileByteSource(path: "/dev/stdin") : try FileByteSource(path: path)
        let (source, _) = try RecordIO.sniff(raw)
        let name = path == "-" ? "<stdin>" : path
        let input = InputBox(source: source)
        let collector = ErrorCollector(name: name, limit: limit)
        let inputRef = Unmanaged.passRetained(input)
        let collectorRef = Unmanaged.passRetained(collector)
        defer {
            inputRef.release()
            collectorRef.release()
        }
        // libxml2's generic messages go to the collector (kept as notes), never to stderr.
        let sink = UnsafeMutablePointer<larder_xml_message_sink>.allocate(capacity: 1)
        sink.initialize(to: larder_xml_message_sink(function: genericMessage, context: collectorRef.toOpaque()))
        larder_xml_set_message_sink(sink)
        defer {
            larder_xml_set_message_sink(nil)
            sink.deallocate()
        }
        let options = Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue)
        guard let reader = xmlReaderForIO(readInput, closeInput, inputRef.toOpaque(), name, nil, options) else {
            throw LarderError(.io, "\(name): cannot start the XML reader")
        }
        defer { xmlFreeTextReader(reader) }
        collector.reader = reader
        xmlTextReaderSetStructuredErrorHandler(reader, structuredError, collectorRef.toOpaque())
        if let schema, xmlTextReaderSetSchema(reader, schema) != 0 {
            throw LarderError(.schema, "\(name): cannot attach the XSD")
        }
        var declaredSchema: String?
        var declaredVersion: Int?
        var records = 0
        while true {
            let status = xmlTextReaderRead(reader)
            if status == -1 {
                if collector.errors.isEmpty || collector.errors.allSatisfy({ $0.code != .syntax }) {
                    let line = Int(xmlTextReaderGetParserLineNumber(reader))
                    let column = Int(xmlTextReaderGetParserColumnNumber(reader))
                    collector.errors.append(
                        LarderError(
                            .syntax, "malformed XML: the document is not well-formed (truncated?)",
                            location: SourceLocation(
                                file: name, line: line > 0 ? line : nil, column: column > 0 ? column : nil)))
                }
                break
            }
            if status != 1 { break }
            guard xmlTextReaderNodeType(reader) == 1 else { continue }  // element starts only
            let depth = xmlTextReaderDepth(reader)
            if depth == 0 {
                declaredSchema = attribute(reader, "schema")
                declaredVersion = attribute(reader, "version").flatMap { Int($0) }
                if stopAfterRoot { break }
            } else if depth == 1 {
                collector.recordIndex = records
                records += 1
            }
            if collector.errors.count >= limit { break }
        }
        if let error = input.error { throw error }
        if schema != nil, !stopAfterRoot, collector.errors.isEmpty, xmlTextReaderIsValid(reader) != 1 {
            collector.errors.append(
                LarderError(
                    .malformedRecord, "the document does not match the XSD", location: SourceLocation(file: name)))
        }
        return Result(
            records: records, errors: collector.errors, declaredSchema: declaredSchema, declaredVersion: declaredVersion
        )
    }

    private static func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
        guard let value = xmlTextReaderGetAttribute(reader, name) else { return nil }
        defer { larder_xmlFree(value) }
        return String(cString: value)
    }

    /// The input side of `xmlReaderForIO`.
    private final class InputBox {
        let source: any ByteSource
        var error: LarderError?
        init(source: any ByteSource) { self.source = source }
    }

    /// Collects libxml2's structured errors with their positions.
    private final class ErrorCollector {
        let name: String
        let limit: Int
        var errors: [LarderError] = []
        /// libxml2's generic messages (internal notes such as "Unimplemented block at
        /// xmlschemas.c"), kept out of the terminal; not problems in the file.
        var libraryMessages: [String] = []
        var recordIndex: Int?
        var reader: xmlTextReaderPtr?
        init(name: String, limit: Int) {
            self.name = name
            self.limit = limit
        }
    }

    private static let readInput: xmlInputReadCallback = { context, buffer, length in
        guard let context, let buffer, length > 0 else { return -1 }
        let box = Unmanaged<InputBox>.fromOpaque(context).takeUnretainedValue()
        do {
            let n = try box.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
            return Int32(n)
        } catch let error as LarderError {
            box.error = error
            return -1
        } catch {
            box.error = LarderError(.io, "\(error)")
            return -1
        }
    }

    private static let closeInput: xmlInputCloseCallback = { _ in 0 }

    private static let genericMessage: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = {
        context, message in
        guard let context, let message else { return }
        let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
        if collector.libraryMessages.count < 100 { collector.libraryMessages.append(String(cString: message)) }
    }

    private static let structuredError: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
        guard collector.errors.count < collector.limit else { return }
        let e = error.pointee
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = e.message.map { String(cString: $0) } ?? "XML error"
        while message.hasSuffix("\n") { message.removeLast() }
        let line = e.line > 0 ? Int(e.line) : nil
        var column = e.int2 > 0 ? Int(e.int2) : nil
        if column == nil, let reader = collector.reader, let line,
            xmlTextReaderGetParserLineNumber(reader) == Int32(line)
        {
            let parserColumn = xmlTextReaderGetParserColumnNumber(reader)
            if parserColumn > 0 { column = Int(parserColumn) }
        }
        let isSchema = e.domain == Int32(XML_FROM_SCHEMASV.rawValue)
        collector.errors.append(
            LarderError(
                isSchema ? .malformedRecord : .syntax, message,
                location: SourceLocation(
                    file: collector.name, line: line, column: column,
                    recordIndex: isSchema ? collector.recordIndex : nil)))
    }
}
