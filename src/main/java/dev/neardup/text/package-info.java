/**
 * Documents to shingle hashes: HTML to visible text, Unicode normalisation, tokens, optional stop
 * words and stemming, word and character shingles hashed to 64 bits.
 *
 * <p>This is the pre-processing of Broder 1997 (strip HTML, scripts and comments; optional stop
 * words and Porter 1980 stemming; word shingles) and the shingling of Leskovec, Rajaraman and
 * Ullman, Mining of Massive Datasets, 2014, ch. 3 (character k-shingles, hashed to a compact
 * integer). The pipeline is
 *
 * <pre>
 *   content --{@link dev.neardup.text.HtmlText} (HTML only)--&gt; visible text
 *           --{@link dev.neardup.text.Tokenizer}--&gt; NFKC_Casefold tokens (letter/digit runs;
 *                                  for word shingles, runs of Han, kana, Hangul, Thai, Lao,
 *                                  Khmer and Myanmar letters as overlapping bigrams)
 *           --{@link dev.neardup.text.Shingler}--&gt; 64-bit XXH3 hashes of w-token or k-char windows
 * </pre>
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.text;
