package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** At most 64 inputs open: the least recently used is closed to open another, and reopened. */
class OpenInputsTest {

    private static final class Input implements Closeable {
        final int number;
        boolean closed;

        Input(int number) {
            this.number = number;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void theLeastRecentlyUsedInputIsClosedBeyondTheLimit() throws Exception {
        List<Input> opened = new ArrayList<>();
        OpenInputs<Input> open =
                new OpenInputs<>(
                        n -> {
                            Input in = new Input(n);
                            opened.add(in);
                            return in;
                        });
        for (int n = 0; n < OpenInputs.MAX; n++) {
            assertThat(open.get(n).number).isEqualTo(n);
        }
        assertThat(open.get(0)).isSameAs(opened.get(0)); // used again: now the most recent
        open.get(OpenInputs.MAX);
        assertThat(opened.get(1).closed).as("the least recently used").isTrue();
        assertThat(opened.get(0).closed).isFalse();
        assertThat(opened).hasSize(OpenInputs.MAX + 1);
        Input again = open.get(1);
        assertThat(again).isNotSameAs(opened.get(1));
        assertThat(again.closed).isFalse();
        assertThat(opened.get(2).closed).isTrue();
        open.close();
        assertThat(opened).allMatch(in -> in.closed);
    }
}
