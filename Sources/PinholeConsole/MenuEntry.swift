// A command's items on a menu page: which page, where on it, and the items made from what the menu knows.

/// One command's items on one menu page. Each command type lists its own in its file
/// (`ConsoleCommand.menuEntries`), beside its parser, help, access rule and handler; a page
/// shows the entries made for it in `position` order, so that an item's number stays where
/// people learned it when a command is added (give a new entry a position between or after).
public struct MenuEntry: Sendable {
    /// The page the items are on.
    public var page: MenuPageID
    /// The place on the page: entries are shown in ascending position (10, 20, … leaves room).
    public var position: Int
    /// The items, made from the menu's current view of the appliance (none: not shown now).
    let items: @Sendable (ConsoleMenu) -> [MenuItem]

    /// Entries whose items depend on the menu's view (a value from the status, an item shown
    /// only sometimes).
    public init(_ page: MenuPageID, at position: Int, items: @escaping @Sendable (ConsoleMenu) -> [MenuItem])
    {
        self.page = page
        self.position = position
        self.items = items
    }

    /// An entry of one item.
    public init(_ page: MenuPageID, at position: Int, item: @escaping @Sendable (ConsoleMenu) -> MenuItem) {
        self.init(page, at: position) { [item($0)] }
    }
}

extension CommandCatalog {
    /// Every command's menu entries by page, each page's in position order.
    static let menuEntries: [MenuPageID: [MenuEntry]] = Dictionary(
        grouping: commandTypes.flatMap { $0.menuEntries }, by: \.page
    ).mapValues { $0.sorted { $0.position < $1.position } }

    /// The commands' items on `page`, as the menu now sees the appliance.
    static func menuItems(on page: MenuPageID, _ menu: ConsoleMenu) -> [MenuItem] {
        (menuEntries[page] ?? []).flatMap { $0.items(menu) }
    }
}
