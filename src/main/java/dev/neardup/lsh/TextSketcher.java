package dev.neardup.lsh;

import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;

/**
 * The algorithm path of one document, whichever similarity family (Jaccard after Broder 1997,
 * cosine after Charikar 2002; the same four steps: a distance, a representation, a projection,
 * extraction): text to features to a sketch to band keys. {@link DocumentSketcher} is the Jaccard
 * family (shingles, MinHash, LSH banding); {@link SimHashSketcher} the cosine family (term
 * frequencies, SimHash, permuted blocks). The job's signature operator calls one of them and hands
 * the band keys to the one band-bucket operator.
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
