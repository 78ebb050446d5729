import LarderCore
import LarderFormats
import Testing

@Suite struct HTMLDocumentTests {
    @Test("repairs unclosed tags and decodes entities in text and attributes")
    func repairsDamagedPage() throws {
        let root = try HTMLDocument.parse(
            Array(#"<html><body><p class="a b">Fish &amp; chips<li>one<li data-x="&quot;two&quot;">two</ul>"#.utf8),
            name: "page.html")
        #expect(root.name == "html")
        guard case .element(let body)? = root.children.first else {
            Issue.record("no body")
            return
        }
        #expect(body.name == "body")
        let p = try #require(body.elements.first)
        #expect(p[attribute: "class"] == "a b")
        #expect(p.classes == ["a", "b"])
        guard case .text(let text)? = p.children.first else {
            Issue.record("no text")
            return
        }
        #expect(text == "Fish & chips")
        let items = p.elements.filter { $0.name == "li" } + body.elements.filter { $0.name == "li" }
        #expect(items.count == 2)
        #expect(items.last?[attribute: "data-x"] == "\"two\"")
    }

    @Test("keeps script text and drops comments")
    func keepsScriptText() throws {
        let root = try HTMLDocument.parse(
            Array("<html><head><!-- note --><script>var a = 1 < 2;</script></head></html>".utf8), name: "page.html")
        guard case .element(let head)? = root.children.first else {
            Issue.record("no head")
            return
        }
        #expect(head.children.count == 1)
        guard case .element(let script)? = head.children.first, case .text(let code)? = script.children.first else {
            Issue.record("no script")
            return
        }
        #expect(code == "var a = 1 < 2;")
    }

    @Test("reads an empty page as an empty html element")
    func readsEmptyPage() throws {
        let root = try HTMLDocument.parse([], name: "empty.html")
        #expect(root.name == "html")
        #expect(root.children.isEmpty)
    }
}
