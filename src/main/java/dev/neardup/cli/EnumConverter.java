package dev.neardup.cli;

import dev.neardup.config.Setting;
import dev.neardup.tools.compare.DocumentReader;
import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converts an option value to an enum constant, ignoring case, with an error message that lists the
 * values as they are typed ({@code none, porter or snowball}). Subclasses name the enum, as picocli
 * instantiates converters by class.
 */
abstract class EnumConverter<E extends Enum<E>> implements ITypeConverter<E> {

    private final Class<E> type;

    EnumConverter(Class<E> type) {
        this.type = type;
    }

    @Override
    public E convert(String value) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value.strip())) {
                return constant;
            }
        }
        throw new TypeConversionException("expected " + choices(type) + ", got '" + value + "'");
    }

    /** For example "none, porter or snowball". */
    static String choices(Class<? extends Enum<?>> type) {
        return Setting.either(
                Arrays.stream(type.getEnumConstants())
                        .map(e -> e.name().toLowerCase(Locale.ROOT))
                        .toList());
    }

    static final class ContentTypeConverter
            extends EnumConverter<DocumentReader.ContentTypeOption> {
        ContentTypeConverter() {
            super(DocumentReader.ContentTypeOption.class);
        }
    }
}
