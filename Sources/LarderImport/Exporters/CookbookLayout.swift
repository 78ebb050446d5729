/// How the printed cookbook is laid out (`larder export --to html` and `--to pdf`).
package struct CookbookLayout: Sendable, Hashable {
    /// What the book's chapters are.
    package enum Grouping: String, Sendable, Hashable, CaseIterable {
        /// One chapter per category (a recipe's first), A–Z; recipes without one last.
        case category
        /// One chapter per course (a recipe's first).
        case course
        /// One chapter per cuisine (a recipe's first).
        case cuisine
        /// No chapters: every recipe A–Z.
        case none
    }

    /// The paper the book is laid out for.
    package enum Paper: String, Sendable, Hashable, CaseIterable {
        /// ISO A4, 210 × 297 mm.
        case a4
        /// US Letter, 8.5 × 11 in.
        case letter

        /// The CSS `@page` size.
        var cssSize: String {
            switch self {
            case .a4: "A4"
            case .letter: "letter"
            }
        }
    }

    /// The title on the cover.
    package var title: String
    /// What the chapters are.
    package var groupBy: Grouping
    /// The paper size.
    package var paper: Paper

    /// A layout: `Cookbook`, chapters by category, A4.
    package init(title: String = "Cookbook", groupBy: Grouping = .category, paper: Paper = .a4) {
        self.title = title
        self.groupBy = groupBy
        self.paper = paper
    }
}
