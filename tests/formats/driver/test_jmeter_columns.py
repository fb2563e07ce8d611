"""The columns of a headerless JTL CSV: JMeter's default sets recognised, and the
jmeter.save.saveservice.* settings of a properties file (JMeter 5.x's jmeter.properties,
"Results file configuration", gives the names, the defaults and the column order)."""

from __future__ import annotations

from zperf.formats.driver.jmeter_columns import (
    DEFAULT_SETS,
    known_counts,
    parse_properties,
    recognise,
    settings_from_properties,
)


def test_java_properties_syntax() -> None:
    text = ("# comment\n! also a comment\n  a.b = 1\nc:2\nd 3\n"
            "long = one, \\\n    two\ntab = x\\ty\n")
    assert parse_properties(text) == {"a.b": "1", "c": "2", "d": "3", "long": "one, two",
                                      "tab": "x\ty"}


def test_the_defaults_give_jmeter_5_s_17_columns_with_a_header() -> None:
    settings = settings_from_properties("")
    assert settings.columns is None  # print_field_names defaults to true: a header
    bare = settings_from_properties("jmeter.save.saveservice.print_field_names=false\n")
    assert bare.columns == DEFAULT_SETS[0][1]
    assert (bare.delimiter, bare.timestamp_format) == (None, None)


def test_settings_switch_columns_delimiter_and_time_format() -> None:
    text = ("jmeter.save.saveservice.print_field_names=false\n"
            "jmeter.save.saveservice.thread_counts=false\n"
            "jmeter.save.saveservice.hostname=true\n"
            "jmeter.save.saveservice.default_delimiter=\\t\n"
            "jmeter.save.saveservice.timestamp_format=yyyy/MM/dd HH:mm:ss.SSS\n")
    settings = settings_from_properties(text)
    assert settings.columns is not None
    assert "grpThreads" not in settings.columns and "allThreads" not in settings.columns
    assert settings.columns.index("Hostname") == settings.columns.index("IdleTime") - 1
    assert settings.delimiter == "\t"
    assert settings.timestamp_format == "yyyy/MM/dd HH:mm:ss.SSS"


def test_the_time_stamp_is_the_start_or_the_end_only_when_the_file_says_so() -> None:
    assert settings_from_properties("").timestamp is None
    assert settings_from_properties("sampleresult.timestamp.start=true\n").timestamp == "start"
    assert settings_from_properties("sampleresult.timestamp.start = false\n").timestamp == "end"
    assert settings_from_properties("#sampleresult.timestamp.start=false\n").timestamp is None


def test_recognised_by_count_and_content() -> None:
    ten = ["1393227741256,1425,Login,200,OK,Thread Group 1-1,text,true,3478,1016"]
    assert recognise(ten, ",") == ("JMeter 2.x", DEFAULT_SETS[3][1])
    # ten fields, but 'success' is not a boolean: not JMeter's
    assert recognise(["1393227741256,1425,Login,200,OK,T 1-1,text,maybe,3478,1016"], ",") is None
    assert recognise(["a,b,c"], ",") is None and recognise([], ",") is None
    assert known_counts() == "17 (JMeter 3.1 to 5.x), 16 (JMeter 3.0), 12, 10 or 9 (JMeter 2.x)"
