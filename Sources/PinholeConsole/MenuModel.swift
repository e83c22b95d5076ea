// The interactive menu as a value-type state machine: keys and answers in, effects out.

/// What the menu is fed.
public enum MenuEvent: Sendable {
    /// A key from the terminal.
    case key(TerminalKey)
    /// The answer line of a command the menu asked for.
    case answer(command: ConsoleInvocation, text: String)
    /// A fresh view of the appliance.
    case snapshot(MenuSnapshot)
    /// Library data the menu asked for (see `MenuEffect.load`).
    case library(LibraryData)
    /// A new viewfinder frame, already converted to cells.
    case preview([[ScreenCell]])
    /// The library changed (here or in another process).
    case libraryChanged
}

/// What the shell must do for the menu.
public enum MenuEffect: Hashable, Sendable {
    /// Run a console command; feed its answer back as `.answer`.
    case run(ConsoleInvocation)
    /// Fetch library data; feed it back as `.library`.
    case load(LibraryRequest)
    /// Redraw the whole screen (Ctrl-L).
    case redrawAll
    /// Ring the terminal bell.
    case bell
    /// Start or stop sending viewfinder frames.
    case preview(Bool)
    /// Leave the console.
    case quit
    /// Switch to line mode.
    case lineMode
}

/// The interactive console's model. Pure: no I/O, no clock. The shell feeds it keys,
/// command answers and snapshots, performs the effects it returns, and draws `screen()`.
public struct ConsoleMenu: Sendable {
    /// Pages from the main menu to the current one.
    public private(set) var stack: [MenuPageID] = [.main]
    private var selections: [MenuPageID: Int] = [:]
    /// The question being asked at the prompt line, if any.
    public private(set) var prompt: Prompt?
    /// The typed-word confirmation being asked, if any (its word is typed at the prompt).
    public private(set) var confirmation: Confirmation?
    var editor = LineEditor(maximumLength: 200)
    /// The last answer or note shown above the prompt line.
    public private(set) var message = ""
    /// Whether `message` is an error.
    public private(set) var messageIsError = false
    /// Commands sent and not yet answered.
    public private(set) var waiting: [ConsoleInvocation] = []
    private var afterUnlock: ItemAction?
    /// The appliance as last seen.
    public var snapshot = MenuSnapshot()
    /// Library pages' state.
    public var browser = LibraryBrowser()
    /// The latest viewfinder frame.
    var preview: [[ScreenCell]] = []
    /// Whether the Unicode half-block preview is used (else ASCII shades).
    public var unicode = true
    /// Screen size.
    public let width: Int, height: Int

    /// A menu on the main page.
    public init(width: Int = 80, height: Int = 24) {
        self.width = max(40, width)
        self.height = max(12, height)
    }

    /// The page shown.
    public var page: MenuPageID { stack.last ?? .main }

    /// The selected row on the current page.
    public var selection: Int { selections[page] ?? firstSelectable(items(for: page)) }

    /// Feeds one event; returns what the shell must do.
    public mutating func handle(_ event: MenuEvent) -> [MenuEffect] {
        switch event {
        case .key(let key): return handleKey(key)
        case .answer(let command, let text): return answered(command, text)
        case .snapshot(let snapshot):
            let wasUnlocked = self.snapshot.access.unlocked
            self.snapshot = snapshot
            return relockIfNeeded(wasUnlocked: wasUnlocked)
        case .library(let data):
            browser.receive(data)
            return []
        case .preview(let rows):
            preview = rows
            return []
        case .libraryChanged:
            return Self.protectedPages.contains(page) && page != .settings ? browser.reload() : []
        }
    }

    /// Pages that need the PIN.
    static let protectedPages: Set<MenuPageID> = [.library, .albums, .photos, .photo, .settings]

    /// Leaves protected pages when the console has locked (idle timeout, `lock`).
    private mutating func relockIfNeeded(wasUnlocked: Bool) -> [MenuEffect] {
        let access = snapshot.access
        guard access.pinConfigured, !access.unlocked else { return [] }
        if let index = stack.firstIndex(where: { Self.protectedPages.contains($0) }) {
            stack.removeSubrange(index...)
            prompt = nil
            confirmation = nil
            note(wasUnlocked ? "locked after a while without input: unlock again with the PIN" : "locked")
        }
        return []
    }

    // MARK: Keys

    private mutating func handleKey(_ key: TerminalKey) -> [MenuEffect] {
        if key == .control("l") { return [.redrawAll] }
        if let prompt { return promptKey(key, prompt: prompt) }
        let items = items(for: page)
        switch key {
        case .up: moveSelection(-1, items)
        case .down, .tab: moveSelection(1, items)
        case .pageUp: return pageKey(forward: false, items)
        case .pageDown: return pageKey(forward: true, items)
        case .home: selections[page] = firstSelectable(items)
        case .end: selections[page] = items.lastIndex { $0.action != nil } ?? 0
        case .enter, .right:
            guard items.indices.contains(selection), let action = items[selection].action else {
                return [.bell]
            }
            return perform(action, item: items[selection])
        case .escape, .left, .backspace: return goBack()
        case .interrupt:
            let wasPreviewing = page == .viewfinder
            stack = [.main]
            return wasPreviewing ? [.preview(false)] : []
        case .character(let character):
            // ASCII digits only: other scripts' digits (a stray UTF-8 pair) must not choose items.
            if let ascii = character.asciiValue, ascii >= UInt8(ascii: "1"), ascii <= UInt8(ascii: "9") {
                let digit = Int(ascii - UInt8(ascii: "0"))
                let numbered = items.indices.filter { items[$0].action != nil }
                guard digit <= numbered.count else { return [.bell] }
                selections[page] = numbered[digit - 1]
                return perform(items[numbered[digit - 1]].action!, item: items[numbered[digit - 1]])
            }
            if character == "q" || character == "Q" { return goBack() }
            return pageCharacter(character)
        default: return [.bell]
        }
        return []
    }

    private mutating func promptKey(_ key: TerminalKey, prompt: Prompt) -> [MenuEffect] {
        switch editor.handle(key) {
        case .editing: return []
        case .bell: return [.bell]
        case .cancelled:
            self.prompt = nil
            afterUnlock = nil
            confirmation = nil
            note("cancelled")
            return []
        case .submitted(let answer):
            self.prompt = nil
            if let confirmation {
                self.confirmation = nil
                guard confirmation.accepts(answer) else {
                    note("cancelled: nothing was done (type \(confirmation.word) to confirm)")
                    return []
                }
                return send(confirmation.invocation, shown: confirmation.word, confirmed: true)
            }
            guard !answer.trimmingWhitespace().isEmpty else {
                afterUnlock = nil
                note("cancelled (empty answer)")
                return []
            }
            do {
                guard let invocation = try prompt.invocation(for: answer) else { return [] }
                return send(invocation, shown: prompt.label)
            } catch {
                afterUnlock = nil
                message = LineModeConsole.errorLine(error)
                messageIsError = true
                return []
            }
        }
    }

    private mutating func moveSelection(_ delta: Int, _ items: [MenuItem]) {
        let selectable = items.indices.filter { items[$0].action != nil }
        guard !selectable.isEmpty else { return }
        let position = selectable.firstIndex(of: selection) ?? 0
        selections[page] = selectable[min(max(0, position + delta), selectable.count - 1)]
    }

    private mutating func pageKey(forward: Bool, _ items: [MenuItem]) -> [MenuEffect] {
        if page == .photos { return browser.turnPage(forward: forward) }
        for _ in 0..<bodyRows { moveSelection(forward ? 1 : -1, items) }
        return []
    }

    private mutating func pageCharacter(_ character: Character) -> [MenuEffect] {
        switch (page, character) {
        case (.photos, "n"), (.photos, " "): return browser.turnPage(forward: true)
        case (.photos, "p"): return browser.turnPage(forward: false)
        default: return [.bell]
        }
    }

    private mutating func goBack() -> [MenuEffect] {
        guard stack.count > 1 else { return [.bell] }
        let left = stack.removeLast()
        return left == .viewfinder ? [.preview(false)] : []
    }

    // MARK: Actions

    /// Performs an item's action (also used after an unlock).
    mutating func perform(_ action: ItemAction, item: MenuItem? = nil) -> [MenuEffect] {
        if item?.needsPIN == true, snapshot.access.pinConfigured, !snapshot.access.unlocked {
            afterUnlock = action
            return ask(Prompt("PIN to unlock", .word(before: ["unlock"]), secret: true))
        }
        switch action {
        case .open(let target):
            stack.append(target)
            var effects = browser.opened(target)
            if target == .viewfinder { effects.append(.preview(true)) }
            return effects
        case .run(let invocation): return send(invocation, shown: item?.label)
        case .ask(let question): return ask(question)
        case .back: return goBack()
        case .quit: return [.quit]
        case .lineMode: return [.lineMode]
        case .local(let name):
            let (effects, next) = browser.local(name)
            if let next { stack.append(next) }
            return effects
        }
    }

    private mutating func ask(_ question: Prompt) -> [MenuEffect] {
        prompt = question
        editor.reset(question.initial, secret: question.secret)
        return []
    }

    /// Sends a command, or first asks for its typed-word confirmation when it needs one.
    private mutating func send(
        _ invocation: ConsoleInvocation, shown: String? = nil, confirmed: Bool = false
    ) -> [MenuEffect] {
        if !confirmed, let needed = Confirmation.needed(for: invocation) {
            confirmation = needed
            prompt = Prompt("Type \(needed.word) to confirm", .line)
            editor.reset("", secret: false)
            note(needed.question + " (Esc cancels)")
            return []
        }
        waiting.append(invocation)
        message = "… " + (shown ?? "working")
        messageIsError = false
        return [.run(invocation)]
    }

    private mutating func answered(_ invocation: ConsoleInvocation, _ text: String) -> [MenuEffect] {
        if let index = waiting.firstIndex(of: invocation) { waiting.remove(at: index) }
        message = text
        messageIsError = text.hasPrefix("error") || text.hasPrefix("{\"error\"")
        var effects: [MenuEffect] = []
        if invocation.command is UnlockCommand {
            if !messageIsError {
                snapshot.access.unlocked = true
                if let action = afterUnlock { effects += perform(action) }
            }
            afterUnlock = nil
        }
        effects += browser.answered(invocation.command, failed: messageIsError)
        return effects
    }

    /// Shows a notice on the message line; nothing else changes.
    public mutating func notice(_ text: String) { note(text) }

    private mutating func note(_ text: String) {
        message = text
        messageIsError = false
    }

    // MARK: Items

    /// Rows available for a page's items.
    var bodyRows: Int { height - 6 }

    /// The items of a page.
    public func items(for page: MenuPageID) -> [MenuItem] {
        switch page {
        case .main: return MainPage.items(self)
        case .capture: return CapturePage.items(self)
        case .camera: return CameraPage.items(self)
        case .system: return SystemPage.items(self)
        case .diagnostics: return SystemPage.diagnostics(self)
        case .logs: return SystemPage.logs(self)
        case .library, .albums, .photos, .photo: return browser.items(for: page, cameras: snapshot.cameras)
        case .settings: return SettingsPage.items(self)
        case .viewfinder: return ViewfinderPage.items(self)
        case .gps: return GPSPage.items(self)
        }
    }

    /// The question awaiting its typed word, if any.
    public var pendingConfirmation: String? { confirmation?.question }

    private func firstSelectable(_ items: [MenuItem]) -> Int {
        items.firstIndex { $0.action != nil } ?? 0
    }
}
