/**
 * URL rewrite rules learned from near-duplicate pairs: which URLs of a site name the same content,
 * so that a crawler can normalise them before it fetches them. No Flink: a plain Java library like
 * {@code text}, {@code sketch}, {@code lsh} and {@code eval}, used by {@code neardup rules} and the
 * HTML report.
 *
 * <p>The rules are the "different URLs with similar text" (DUST) rules of Bar-Yossef, Keidar and
 * Schonfeld (WWW 2007; ACM TWEB 2009): substring substitutions learned from pairs of URLs with
 * similar content, kept when they have enough support and few violations. As in Dasgupta, Kumar and
 * Sasturkar (KDD 2008) and Koppula et al. (WSDM 2010), a pair may differ in several places at once
 * (a host alias, a session parameter and a print path), each a rule of its own, and the rules are
 * learned per host and applied in order. {@link dev.neardup.urlrules.UrlRule} is a rule and how it
 * rewrites a URL; {@link dev.neardup.urlrules.RuleLearner} finds the rules of a set of pages and
 * pairs.
 */
package dev.neardup.urlrules;
