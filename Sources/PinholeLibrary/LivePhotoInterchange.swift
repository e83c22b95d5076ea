// The two forms other software reads a Live Photo in: Apple's JPEG + MOV pair, and Google's Motion Photo.

import PinholeCore
import PinholeImaging

/// Builds the interchange files of a Live Photo from its still (our JPEG) and its motion
/// clip rewritten by libavformat (`LibavClipRemuxer`).
///
/// - Apple: the still carries the pair's content identifier as MakerApple tag 17
///   (ContentIdentifier) in an Apple maker note; the MOV carries the same UUID as the mdta key
///   `com.apple.quicktime.content.identifier` (written by the remuxer).
/// - Google Motion Photo 1.0: one JPEG, XMP `Camera:MotionPhoto=1`,
///   `Camera:MotionPhotoPresentationTimestampUs` and a `Container:Directory` whose items give
///   the primary image and the appended MP4 (`Item:Length`), then the MP4's bytes after the
///   JPEG's end.
enum LivePhotoInterchange {
    /// The pair's content identifier: the asset's identifier in the form Apple writes
    /// (uppercase UUID), so an export redone later writes the same bytes.
    static func contentIdentifier(of asset: Asset) -> String { asset.id.uppercased() }

    /// The still with the Apple maker note holding `identifier` (the rest of its EXIF, and its
    /// IFD1 thumbnail, rewritten as they were read).
    static func appleStill(_ jpeg: [UInt8], identifier: String) throws -> [UInt8] {
        var metadata = try ExifReader.read(jpeg: jpeg)
        metadata.makerNote = appleMakerNote(contentIdentifier: identifier)
        return try ExifWriter.embed(metadata, thumbnail: try ExifReader.thumbnail(jpeg: jpeg), into: jpeg)
    }

    /// An Apple maker note ("Apple iOS\0", version 1, "MM", then a big-endian IFD whose offsets
    /// count from the note's start) with one entry: tag 17, ContentIdentifier, ASCII.
    static func appleMakerNote(contentIdentifier: String) -> [UInt8] {
        let text = Array(contentIdentifier.utf8) + [0]
        var note = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)  // 14 bytes
        let dataOffset: UInt32 = 14 + 2 + 12 + 4  // header, entry count, one entry, next-IFD offset
        note += be16(1)
        note += be16(17) + be16(2) + be32(UInt32(text.count)) + be32(dataOffset)
        note += be32(0)
        note += text
        return note
    }

    /// The Motion Photo's JPEG part: `jpeg` with an XMP APP1 segment after its EXIF, to be
    /// followed by the `videoLength` bytes of the MP4 (an export streams them after it); the
    /// still is shown `presentationMicroseconds` into the video.
    static func motionPhotoHead(_ jpeg: [UInt8], videoLength: Int, presentationMicroseconds: Int64) throws
        -> [UInt8]
    {
        let layout = try JPEGLayout(jpeg)
        let xmp = Array(
            xmpPacket(videoLength: videoLength, presentationMicroseconds: presentationMicroseconds).utf8)
        let payload = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp
        guard payload.count + 2 <= 0xFFFF else { throw ImagingError.exifTooLarge(bytes: payload.count) }
        // After the leading APP segments (EXIF first, as readers expect), before anything else.
        let insertAt = layout.segments.first { !(0xE0...0xEF).contains($0.marker) }?.start ?? 2
        var output = Array(jpeg[0..<insertAt])
        output += [0xFF, 0xE1] + be16(UInt16(payload.count + 2)) + payload
        output += jpeg[insertAt...]
        return output
    }

    /// The XMP of a Motion Photo whose video is `videoLength` bytes at the end of the file.
    static func xmpPacket(videoLength: Int, presentationMicroseconds: Int64) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Pinhole">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:Camera="http://ns.google.com/photos/1.0/camera/"
            xmlns:Container="http://ns.google.com/photos/1.0/container/"
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
            Camera:MotionPhoto="1"
            Camera:MotionPhotoVersion="1"
            Camera:MotionPhotoPresentationTimestampUs="\(presentationMicroseconds)">
           <Container:Directory>
            <rdf:Seq>
             <rdf:li rdf:parseType="Resource">
              <Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/>
             </rdf:li>
             <rdf:li rdf:parseType="Resource">
              <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(videoLength)" Item:Padding="0"/>
             </rdf:li>
            </rdf:Seq>
           </Container:Directory>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """
    }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
