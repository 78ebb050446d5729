public import LarderCore

/// Opens readers and writers by path and format, handling gzip and format sniffing.
public enum RecordIO {
    /// Opens `path` (`-` for standard input) for reading records.
    ///
    /// gzip is detected by its magic bytes, whatever the name. The format is `format` when
    /// given, else sniffed from the first bytes of the (decompressed) content.
    /// - Parameters:
    ///   - path: the file to read, possibly gzip-compressed; `-` reads standard input.
    ///   - format: the format to read; `nil` sniffs it from the content and the file name.
    ///   - recordType: the type for formats that need one to type their values (XML); when
    ///     `nil`, XML takes it from the record element names.
    ///   - limits: the limits on nesting, alias expansion and record size.
    /// - Returns: a reader for the format, over the decompressed content.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be opened.
    public static func openReader(
        path: String, format: DataFormat? = nil, recordType: RecordType? = nil, limits: ReaderLimits = .default
    ) throws -> any RecordReader {
        try openReader(
            source: FileByteSource(path: path), format: format, recordType: recordType, limits: limits, path: path)
    }

    /// Opens a reader over any byte source; see ``openReader(path:format:recordType:limits:)``.
    public static func openReader(
        source raw: any ByteSource, format: DataFormat? = nil, recordType: RecordType? = nil,
        limits: ReaderLimits = .default
    ) throws -> any RecordReader {
        try openReader(source: raw, format: format, recordType: recordType, limits: limits, path: nil)
    }

    /// Opens a reader over any byte source; `path`, when given, is the file name whose
    /// extension hints at the format (``DataFormat/sniff(_:path:)``).
    public static func openReader(
        source raw: any ByteSource, format: DataFormat?, recordType: RecordType?, limits: ReaderLimits, path: String?
    ) throws -> any RecordReader {
        let (source, detected) = try sniff(raw, path: path)
        switch format ?? detected {
        case .json: return JSONReader(source: source, lineMode: false, limits: limits)
        case .ndjson: return JSONReader(source: source, lineMode: true, limits: limits)
        case .yaml: return try YAMLReader(source: source, limits: limits)
        case .xml: return try XMLReader(source: source, recordType: recordType, limits: limits)
        }
    }

    /// Wraps `raw` in a decompressor when it is gzip, and sniffs the content's format, with
    /// `path`'s extension as a strong hint (``DataFormat/sniff(_:path:)``).
    public static func sniff(_ raw: any ByteSource) throws -> (any ByteSource, DataFormat) {
        try sniff(raw, path: nil)
    }

    /// ``sniff(_:)`` with `path`'s extension as a strong hint.
    public static func sniff(_ raw: any ByteSource, path: String?) throws -> (any ByteSource, DataFormat) {
        let hint = path == "-" ? nil : path
        let peekable = PeekableByteSource(raw)
        let magic = try peekable.peek(2)
        if GzipReader.isGzip(magic) {
            let inflated = PeekableByteSource(try GzipReader(peekable))
            return (inflated, DataFormat.sniff(try inflated.peek(4096), path: hint))
        }
        return (peekable, DataFormat.sniff(try peekable.peek(4096), path: hint))
    }

    /// Opens a writer to `path` (`nil` or `-` for standard output), written atomically.
    ///
    /// Output is gzip-compressed when `gzip` is true or the path ends in `.gz`. Records go to a temporary
    /// file beside `path` (`.NAME.tmp-PID-XXXXXX`), which ``RecordWriter/finish()`` fsyncs and renames into
    /// place: a run that fails or is killed leaves no partial output and never touches an existing file.
    /// The writer buffers one chunk; memory stays flat whatever the record count.
    ///
    /// ```swift
    /// let writer = try RecordIO.openWriter(path: "recipes.ndjson.gz", format: .ndjson)
    /// try writer.write(recipe.value)
    /// try writer.finish()
    /// ```
    /// - Parameters:
    ///   - path: the file to write; `nil` or `-` writes standard output.
    ///   - format: the format to write.
    ///   - gzip: whether to gzip-compress the output (it also is when `path` ends in `.gz`).
    ///   - options: the envelope, record type and layout of the output.
    /// - Returns: a writer for the format; call ``RecordWriter/finish()`` to move the output into place.
    /// - Throws: ``LarderError`` `io-error` naming the file when its temporary file cannot be created.
    public static func openWriter(
        path: String?, format: DataFormat, gzip: Bool = false, options: WriterOptions = WriterOptions()
    ) throws -> any RecordWriter {
        let file: any ByteSink
        if let path, path != "-" {
            file = try FileByteSink(path: path)
        } else {
            file = FileByteSink(standardOutput: ())
        }
        let compress = gzip || (path?.hasSuffix(".gz") ?? false)
        return try makeWriter(sink: compress ? try GzipWriter(file) : file, format: format, options: options)
    }

    /// Makes a writer for `format` over any sink.
    public static func makeWriter(sink: any ByteSink, format: DataFormat, options: WriterOptions = WriterOptions())
        throws -> any RecordWriter
    {
        switch format {
        case .json: return JSONWriter(sink: sink, lineMode: false, options: options)
        case .ndjson: return JSONWriter(sink: sink, lineMode: true, options: options)
        case .yaml: return try YAMLWriter(sink: sink, options: options)
        case .xml: return try XMLWriter(sink: sink, options: options)
        }
    }
}
