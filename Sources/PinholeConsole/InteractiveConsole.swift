// The interactive console's shell: bytes in, the menu model, commands run, screens out.

import PinholeAppliance
import PinholeCore

/// Runs the menu on a terminal. A thin shell around `ConsoleMenu`: decodes input bytes into
/// keys, feeds them to the model, performs the effects it returns (commands run through the
/// line-mode console, library loads, preview frames) and sends the screen's changes.
/// Everything runs on the appliance's event loop; time (escape timeout, status refresh,
/// preview rate) comes from the loop's clock.
public final class InteractiveConsole {
    /// How long a lone ESC waits for the rest of a sequence.
    public static let escapeTimeout: Duration = .milliseconds(80)
    /// How often the status line refreshes.
    public static let refreshInterval: Duration = .seconds(1)
    /// How often a viewfinder frame is drawn while the Viewfinder page is open.
    public static let previewInterval: Duration = .milliseconds(333)
    /// At most this many commands wait at once; more keys that would run one ring the bell.
    public static let maximumWaiting = 8

    let appliance: Appliance
    let commands: LineModeConsole
    private let loop: EventLoop
    private let write: ([UInt8]) -> Void
    /// The menu model (exposed for tests).
    public private(set) var menu: ConsoleMenu
    private var decoder = TerminalDecoder()
    private var renderer: VT100Renderer
    private var escapeTimer: TimerID?
    private var refreshTimer: TimerID?
    private var previewTimer: TimerID?
    private var log: [String] = []
    /// Nothing is drawn until `start()`: in line mode the menu exists but must stay silent.
    private var stopped = true
    /// Extra snapshot fields (settings, quit offered, simulated) supplied by the runner.
    public var decorate: ((inout MenuSnapshot) -> Void)?
    /// The library the menu's pages read (nil: no library). Loads run on a worker thread.
    public var library: LibraryReading?
    /// Supplies the next viewfinder frame as cells (nil: no preview available).
    public var previewFrame: ((_ width: Int, _ height: Int, _ unicode: Bool) -> [[ScreenCell]]?)?
    /// Whether output is still waiting to go out (a slow serial line): preview frames are
    /// skipped until it has drained, so the preview never floods the line.
    public var outputBusy: (() -> Bool)?
    /// Called when the user leaves the console.
    public var onQuit: (() -> Void)?
    /// Called when the user asks for line mode (nil: not offered).
    public var onLineMode: (() -> Void)? {
        didSet { lineModeOffered = onLineMode != nil }
    }
    private var lineModeOffered = false

    /// A console for `appliance`, running commands through `commands` and writing bytes with
    /// `write`. The line-mode console's own output (events) is logged, not written.
    public init(
        appliance: Appliance, commands: LineModeConsole, colour: Bool, width: Int = 80, height: Int = 24,
        write: @escaping ([UInt8]) -> Void
    ) {
        self.appliance = appliance
        self.commands = commands
        self.loop = appliance.loop
        self.write = write
        self.menu = ConsoleMenu(width: width, height: height)
        self.renderer = VT100Renderer(colour: colour)
        previewFrame = { [engine = appliance.engine, weak appliance] columns, rows, unicode in
            appliance?.noteActivity(wakeFor: "viewfinder")
            return engine.latestViewfinderImage().map {
                ViewfinderPreview.cells(
                    from: $0, columns: columns, rows: rows, rotation: engine.pictureRotation,
                    unicode: unicode)
            }
        }
        appliance.observe { [weak self] event in self?.applianceEvent(event) }
    }

    /// Draws the first screen and starts the status refresh.
    public func start() {
        stopped = false
        refresh()
    }

    /// Stops timers; the terminal is left with the cursor at the bottom, attributes reset.
    public func stop() {
        stopped = true
        for timer in [escapeTimer, refreshTimer, previewTimer].compactMap({ $0 }) { loop.cancel(timer) }
        escapeTimer = nil
        refreshTimer = nil
        previewTimer = nil
        write(Array("\u{1B}[0m\u{1B}[?25h\u{1B}[\(menu.height);1H\r\n".utf8))
    }

    /// The terminal was (re)connected: draw everything again.
    public func terminalReconnected() {
        renderer.invalidate()
        draw()
    }

    /// Whether colour is used.
    public var colour: Bool {
        get { renderer.colour }
        set {
            renderer.colour = newValue
            draw()
        }
    }

    /// Whether the viewfinder uses half blocks (else ASCII shades).
    public var unicode: Bool {
        get { menu.unicode }
        set { menu.unicode = newValue }
    }

    /// The library changed (here or in another process): pages that show it load again.
    public func libraryChanged() {
        guard !stopped else { return }
        perform(menu.handle(.libraryChanged))
        snapshotNow()
        draw()
    }

    /// Shows a notice on the message line (noise ignored, listening again).
    public func notice(_ text: String) {
        menu.notice(text)
        draw()
    }

    /// A line the console logs (events, notes) for the Logs page.
    public func note(_ line: String) {
        log.append(line)
        if log.count > 200 { log.removeFirst(log.count - 200) }
    }

    /// Bytes from the terminal.
    public func receive(_ bytes: [UInt8]) {
        guard !stopped else { return }
        commands.noteActivity()
        // Each key's effects are performed before the next key is handled (a page's data is
        // loaded before the next key acts on it); a flood rings the bell at most once.
        var rang = false
        for key in decoder.feed(bytes) {
            var effects = menu.handle(.key(key))
            if rang { effects.removeAll { $0 == .bell } }
            rang = rang || effects.contains(.bell)
            perform(effects)
        }
        if let timer = escapeTimer { loop.cancel(timer) }
        escapeTimer = nil
        if decoder.isPending {
            escapeTimer = loop.schedule(after: Self.escapeTimeout) { [weak self] in self?.escapeTimedOut() }
        }
        draw()
    }

    private func escapeTimedOut() {
        escapeTimer = nil
        var effects: [MenuEffect] = []
        for key in decoder.flush() { effects += menu.handle(.key(key)) }
        perform(effects)
        draw()
    }

    private func perform(_ effects: [MenuEffect]) {
        for effect in effects {
            switch effect {
            case .run(let command):
                guard commands.pendingCount < Self.maximumWaiting else {
                    _ = menu.handle(
                        .answer(command: command, text: "error 69: busy: wait for the commands already sent"))
                    write([0x07])
                    continue
                }
                commands.submit(command) { [weak self] answer in
                    guard let self, !self.stopped else { return }
                    self.perform(self.menu.handle(.answer(command: command, text: answer)))
                    self.snapshotNow()
                    self.draw()
                }
            case .load(let request):
                guard let library else {
                    perform(menu.handle(.library(.failed("no library is open"))))
                    continue
                }
                // Off the loop: a page load never holds up buttons, LEDs or the watchdog.
                loop.offloadLong({ LibraryLoader.load(request, from: library) }) { [weak self] data in
                    guard let self else { return }
                    perform(menu.handle(.library(data)))
                    draw()
                }
            case .redrawAll:
                renderer.invalidate()
            case .bell:
                write([0x07])
            case .preview(let on):
                if on {
                    schedulePreview()
                } else if let timer = previewTimer {
                    loop.cancel(timer)
                    previewTimer = nil
                }
            case .quit:
                onQuit?()
            case .lineMode:
                onLineMode?()
            }
        }
    }

    private func schedulePreview() {
        if let timer = previewTimer { loop.cancel(timer) }
        previewTimer = nil
        guard !stopped, menu.page == .viewfinder else { return }
        let rows = menu.height - 8
        if outputBusy?() != true, let frame = previewFrame?(menu.width, rows, menu.unicode) {
            _ = menu.handle(.preview(frame))
            draw()
        }
        previewTimer = loop.schedule(after: Self.previewInterval) { [weak self] in self?.schedulePreview() }
    }

    private func refresh() {
        guard !stopped else { return }
        snapshotNow()
        draw()
        refreshTimer = loop.schedule(after: Self.refreshInterval) { [weak self] in self?.refresh() }
    }

    private func snapshotNow() {
        var snapshot = MenuSnapshot()
        snapshot.status = appliance.status()
        let engine = appliance.engine
        snapshot.cameras = engine.cameras.map { camera in
            let listing = CameraListing(camera, engine: engine)
            var summary = MenuSnapshot.Camera(
                id: listing.id, model: listing.model, position: listing.position,
                current: listing.current, torch: listing.torch, focus: listing.focus)
            summary.stillSizes = listing.stillSizes
            return summary
        }
        snapshot.access = commands.accessSummary
        snapshot.buttons = appliance.board.buttons.keys.sorted { $0.rawValue < $1.rawValue }
            .map { ($0.rawValue, appliance.isPressed($0)) }
        snapshot.outputs = appliance.outputs.keys.sorted { $0.rawValue < $1.rawValue }
            .map { ($0.rawValue, appliance.outputs[$0]?.isOn ?? false) }
        snapshot.log = log
        if let store = commands.settingsStore {
            snapshot.settings = store.values
            snapshot.settingsFile = store.file
        }
        snapshot.canSwitchToLineMode = lineModeOffered
        decorate?(&snapshot)
        _ = menu.handle(.snapshot(snapshot))
    }

    private func applianceEvent(_ event: ApplianceEvent) {
        switch event {
        case .saved(let capture): note("saved \(capture.photo.id)")
        case .captureFailed(let why): note("capture failed: \(why)")
        case .cameraChanged(let camera): note("camera \(camera.model)")
        case .torch(let on): note("torch \(on ? "on" : "off")")
        case .problem(let why): note("problem: \(why)")
        case .focusChanged(let mode, let reason): note("af \(mode.rawValue) (\(reason.rawValue))")
        case .notice(let what): note(what)
        case .recording(let recording): note(recording.line)
        case .button(let function, let event):
            if case .pressed = event { note("button \(function.rawValue) pressed") }
        }
        guard !stopped else { return }
        snapshotNow()
        draw()
    }

    private func draw() {
        guard !stopped else { return }
        let bytes = renderer.render(menu.screen())
        if !bytes.isEmpty { write(bytes) }
    }
}
