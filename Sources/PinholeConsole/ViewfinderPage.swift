// The Viewfinder page: a live preview in characters, with the shutter at hand.

/// The live preview page; the picture itself is drawn by the screen layout.
enum ViewfinderPage {
    static func items(_ menu: ConsoleMenu) -> [MenuItem] {
        CommandCatalog.menuItems(on: .viewfinder, menu)
    }
}
