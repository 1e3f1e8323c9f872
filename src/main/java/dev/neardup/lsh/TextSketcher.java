package dev.neardup.lsh;

import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;

/**
 * The algorithm path of one document, whichever similarity family: text to features to a sketch to
 * band keys. {@link DocumentSketcher} is the Jaccard family (Broder 1997: shingles, MinHash, LSH
 * banding), {@link SimHashSketcher} the cosine family (Charikar 2002: term frequencies, SimHash,
 * permuted blocks), {@link ContainmentSketcher} containment.
 *
 * <p>Implementations are not thread-safe (the shingler reuses buffers): one per thread.
 */
public abstract class TextSketcher {

    private final Shingler shingler;

    TextSketcher(Shingler shingler) {
        this.shingler = shingler;
    }

    /** Sketch of a plain-text document. */
    public DocumentSketcher.Sketch sketch(CharSequence text) {
        return sketch(shingler().shingleHashes(text));
    }

    /** Sketch of a document of the given content type. */
    public DocumentSketcher.Sketch sketch(String content, ContentType type) {
        return sketch(shingler().shingleHashes(content, type));
    }

    /** Sketch of a document's shingle hashes, as {@link #shingler()} makes them. */
    public abstract DocumentSketcher.Sketch sketch(long[] shingleHashes);

    public Shingler shingler() {
        return shingler;
    }
}
