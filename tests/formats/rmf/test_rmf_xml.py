"""RMF Postprocessor XML: IBM's public CPU samples, XML against the listing of the
same interval, WLMGL built from IBM's description, damage, refused entities.

The expected values of the samples (tests/data/rmf/xml/README.md) are read off
the files' cells by eye.
"""

from __future__ import annotations

import datetime as dt
import lzma
import re
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA, run_cli
from zperf.errors import InputError, ParseError, ZperfError
from zperf.formats import read as read_files
from zperf.formats import sniff
from zperf.formats.rmf.cpu import read_cpu_activity
from zperf.formats.rmf.wlmgl import read_wlmgl
from zperf.formats.rmf.xml import read_rmf_xml
from zperf.sim.writers.rmf_cpu import write_cpu_report
from zperf.sim.writers.rmf_xml import write_cpu_xml, write_wlmgl_xml
from zperf.sim.writers.wlmgl import write_listing

XML = DATA / "rmf" / "xml"
SMALL = (XML / "zebra-cpu-small.xml").read_bytes()


def read(data: bytes, **kwargs: Any) -> tuple[dict[str, pl.DataFrame], Any]:
    tables, tally = read_rmf_xml(data, "r.xml", **kwargs)
    assert tally.balanced()
    return tables, tally


# ------------------------------------------------------------ IBM's public samples

def test_small_sample_cpu_row() -> None:
    tables, tally = read(SMALL)
    assert (tally.read, tally.parsed, tally.warnings) == (1, 1, [])
    row = tables["cpu"].row(0, named=True)
    expected = {
        "source": "r.xml", "source_format": "rmf-xml", "system": "RPRT", "zos_release": "V2R5",
        "interval_start": dt.datetime(2022, 4, 12, 0, 0), "interval_seconds": 1799.997,
        "cycle_seconds": 1.0, "machine_type": "8562", "model_capacity_id": "Z02",
        "hardware_model": "T02", "cpc_capacity_msu": 413,
        "cpc_sequence_code": "000000000005ED28", "hiperdispatch": "YES", "lpar_name": "VIRPT",
        "image_capacity_msu": 413, "cp_online": 2, "cp_online_engines": 2.0,
        "cp_lpar_busy_pct": 0.89, "cp_mvs_busy_pct": 0.88,  # the TOTAL/AVERAGE row
        "ziip_online": 0, "ziip_lpar_busy_pct": None}
    assert {k: row[k] for k in expected} == expected


def test_small_sample_partitions() -> None:
    lpars = read(SMALL)[0]["cpu_lpar"]
    assert lpars.height == 14  # 4 CP + PHYSICAL, 3 IFL + PHYSICAL, ICFs...: TOTAL rows left out
    assert "TOTAL" not in lpars["partition_name"].to_list()
    virpt = lpars.filter(pl.col("partition_name") == "VIRPT").row(0, named=True)
    assert {k: virpt[k] for k in (
        "own_partition", "partition_status", "weight", "dedicated", "msu_defined", "msu_actual",
        "capping_defined", "capping_wlm_pct", "logical_processors", "processor_type",
        "physical_processors", "effective_dispatch_seconds", "total_dispatch_seconds",
        "logical_effective_pct", "logical_total_pct", "physical_lpar_mgmt_pct",
        "physical_effective_pct", "physical_total_pct")} == {
        "own_partition": True, "partition_status": "Active", "weight": 52, "dedicated": False,
        "msu_defined": 0, "msu_actual": 4, "capping_defined": "N Y N", "capping_wlm_pct": 0.0,
        "logical_processors": 2, "processor_type": "CP", "physical_processors": 2,
        "effective_dispatch_seconds": 30.899, "total_dispatch_seconds": 32.055,
        "logical_effective_pct": 0.86, "logical_total_pct": 0.89,
        "physical_lpar_mgmt_pct": 0.03, "physical_effective_pct": 0.86,
        "physical_total_pct": 0.89}
    kvm = lpars.filter(pl.col("partition_name") == "KVMOCP1").row(0, named=True)
    assert (kvm["processor_type"], kvm["weight"], kvm["physical_processors"],
            kvm["total_dispatch_seconds"], kvm["msu_actual"]) == ("IFL", 100, 4, 1313.78, None)
    physical = lpars.filter((pl.col("partition_name") == "PHYSICAL")
                            & (pl.col("processor_type") == "CP")).row(0, named=True)
    assert (physical["total_dispatch_seconds"], physical["physical_lpar_mgmt_pct"],
            physical["weight"], physical["own_partition"]) == (7.832, 0.22, None, False)


@pytest.mark.slow  # the default run reads it too: its golden case (tests/test_golden.py)
def test_large_sample_every_interval() -> None:
    data = lzma.decompress((XML / "zebra-cpu.xml.xz").read_bytes())
    tables, tally = read(data)
    assert (tally.read, tally.parsed, tally.skipped, tally.warnings) == (263, 263, 0, [])
    cpu = tables["cpu"]
    assert cpu["interval_start"].n_unique() == 263
    assert cpu["system"].unique().to_list() == ["RPRT"]
    assert cpu["cp_online"].unique().to_list() == [2]
    assert tables["cpu_lpar"].height == 3682
    assert tables["cpu_lpar"]["partition_name"].null_count() == 0


def test_sniffed_and_forced(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    assert sniff(SMALL[:65536]) == "rmf-xml"
    assert sniff(b"<postprocessor>\n <metric id='CPU'/>") == "rmf-xml"
    path = tmp_path / "cpu.xml"
    path.write_bytes(SMALL)
    code, out, _ = run_cli(capsys, "parse", "--from", "rmf-xml", "--table", "cpu_lpar",
                             "--to", "csv", str(path))
    assert code == 0 and out.count("\n") == 15 and ",rmf-xml," in out


# ------------------------------------------------------------ the same as the listing

CPU_ROW = {"system": "SYSA", "sysplex": None, "zos_release": "V2R4",
           "interval_start": dt.datetime(2024, 3, 1, 9, 15), "interval_seconds": 899.998,
           "cycle_seconds": 1.0, "machine_type": "3931", "model_capacity_id": "705",
           "hardware_model": "A01", "cpc_capacity_msu": 1250, "cpc_sequence_code": "00000001234",
           "hiperdispatch": "YES", "lpar_name": "SYSA", "image_capacity_msu": 900,
           "cp_online": 5, "cp_online_engines": 4.5, "cp_lpar_busy_pct": 61.37,
           "cp_mvs_busy_pct": 60.02, "ziip_online": 2, "ziip_online_engines": 2.0,
           "ziip_lpar_busy_pct": 12.5, "ziip_mvs_busy_pct": 11.25}


def test_cpu_xml_equals_listing() -> None:
    rows = [CPU_ROW, {**CPU_ROW, "interval_start": dt.datetime(2024, 3, 1, 9, 30),
                      "cp_lpar_busy_pct": 70.0, "ziip_online": 0}]
    listing = read_cpu_activity(write_cpu_report(rows).encode(), "f")[0]["cpu"]
    xml = read(write_cpu_xml(rows).encode())[0]["cpu"]
    assert listing.height == 2
    assert xml.drop("source", "source_format").equals(
        listing.drop("source", "source_format"))


def test_cpu_lpar_round_trip() -> None:
    lpars = [{"system": "SYSA", "interval_start": CPU_ROW["interval_start"],
              "partition_name": name, "partition_status": "Active", "weight": weight,
              "dedicated": weight is None, "msu_defined": 0, "msu_actual": 120,
              "capping_defined": "N N N", "capping_wlm_pct": 0.0, "logical_processors": 5,
              "processor_type": "CP", "physical_processors": 9,
              "effective_dispatch_seconds": 2500.125, "total_dispatch_seconds": 2550.5,
              "logical_effective_pct": 55.57, "logical_total_pct": 56.68,
              "physical_lpar_mgmt_pct": 0.62, "physical_effective_pct": 30.87,
              "physical_total_pct": 31.49} for name, weight in (("SYSA", 600), ("SYSB", None))]
    got = read(write_cpu_xml([CPU_ROW], lpars).encode())[0]["cpu_lpar"]
    back = got.select(list(lpars[0])).with_columns(pl.col("weight").cast(pl.Int64)).to_dicts()
    assert back == [{**lpar, "weight": lpar["weight"]} for lpar in lpars]
    assert got["own_partition"].to_list() == [True, False]


WORK = {"sysplex": "PLEXA", "zos_release": "V2R4", "interval_start": dt.datetime(2024, 3, 1, 9),
        "interval_seconds": 900.0, "policy": "WEEKDAY", "workload": "ONLINE",
        "class_kind": "service", "class_name": "CICSHIGH", "period": 1, "importance": 1,
        "description": "CICS regions", "trans_avg": 12.34, "trans_mpl": 12.3,
        "trans_ended": 12_345_678, "trans_end_per_sec": 13717.42, "trans_executed": 12_345_600,
        "trans_swaps": 0, "resp_actual_ms": 4.5, "resp_execution_ms": 3.25,
        "resp_queued_ms": 0.0, "resp_std_dev_ms": 61_234.0, "dasd_ssch_per_sec": 101.2,
        "dasd_resp_ms": 0.4, "su_ioc": 0.0, "su_cpu": 98_765_432.0, "su_mso": 0.0,
        "su_srb": 1_234.0, "su_total": 98_766_666.0, "su_per_sec": 109_740.0,
        "su_absrptn": 8890.0, "su_trx_serv": 8890.0, "cpu_seconds": 1234.567,
        "srb_seconds": 0.016, "iip_seconds": 45.5, "appl_cp_pct": 132.1, "appl_iipcp_pct": 0.5,
        "appl_iip_pct": 5.06, "goal_type": "percentile_response", "goal_response_ms": 500.0,
        "goal_percentile": 90}


def _work_rows() -> list[dict[str, Any]]:
    report = {**WORK, "class_kind": "report", "class_name": "RCICS", "period": None,
              "importance": None, "goal_type": None}
    velocity = {**WORK, "class_name": "BATCH", "goal_type": "velocity",
                "goal_velocity_pct": 40.0, "trans_ended": 12, "resp_actual_ms": 3_725_123.0}
    later = {**WORK, "interval_start": dt.datetime(2024, 3, 1, 9, 15)}
    return [WORK, velocity, report, later]


def test_wlmgl_xml_equals_listing() -> None:
    rows = _work_rows()
    buckets = [[(250.0, 9000), (500.0, 3000), (1000.0, 345), (None, 678)], [], [],
               [(500.0, 10)]]
    text = write_listing(rows, goals=True, distributions=buckets, layout="V2R4")
    work, distribution, _ = read_wlmgl(text.encode(), "f")
    listing = {"workload": work, "distribution": distribution}
    tables, tally = read(write_wlmgl_xml(rows, goals=True, distributions=buckets).encode())
    assert (tally.read, tally.parsed, tally.warnings) == (2, 2, [])
    for table, keys in (("workload", ["interval_start", "class_kind", "class_name"]),
                        ("distribution", ["interval_start", "class_name", "bucket"])):
        # state_samples_raw is the listing's printed goal-versus-actual block (the
        # XML report has its own part for it, which zperf does not read), and the
        # PERF INDX printed there (perf_index_printed)
        printed = ("source", "source_format", "state_samples_raw", "perf_index_printed")
        want = listing[table].drop(*printed, strict=False).sort(keys)
        got = tables[table].drop(*printed, strict=False).sort(keys)
        assert got.height == want.height > 0
        assert got.equals(want), table
    high = tables["workload"].row(0, named=True)
    assert (high["goal_type"], high["goal_response_ms"], high["goal_percentile"],
            high["trans_ended"], high["su_cpu"]) == ("percentile_response", 500.0, 90,
                                                     12_346_000, 98_765_000.0)


# ------------------------------------------------------------ what zperf does not know

def _cpu_doc(extra: str = "", metric: str = "CPU") -> bytes:
    return write_cpu_xml([CPU_ROW]).replace('<metric id="CPU">', f'<metric id="{metric}">') \
        .replace("</postprocessor>", extra + "</postprocessor>").encode()


def test_unknown_element_and_other_report_are_reported() -> None:
    tables, tally = read(_cpu_doc("<gadget>1</gadget>"))
    assert tally.parsed == 1 and tables["cpu"].height == 1
    assert tally.warnings == ["element <gadget> in a report: not known to zperf, not read "
                              "(1 report)"]
    tables, tally = read(_cpu_doc(metric="CHAN"))
    assert (tally.read, tally.other, tables["cpu"].height) == (1, 1, 0)
    assert tally.warnings == ["other reports counted and not read: CHAN (1)"]


def test_a_dds_error_reply_is_named_by_its_message() -> None:
    """What the Distributed Data Server returns for a request it refuses (zowe/zebra keeps
    one as a test sample): a postprocessor element holding only RMF's message."""
    doc = (b'<?xml version="1.0" encoding="UTF-8"?>\n<ddsml>\n<server><name>RMF-DDS-Server'
           b'</name><version>ZOSV2R5</version></server>\n<postprocessor>\n'
           b'<message id="GPM0739E">\n<description>Invalid DDS request parameter \'DATE\''
           b'</description>\n<severity>3</severity>\n</message>\n</postprocessor>\n</ddsml>\n')
    offset = doc.index(b"<postprocessor>")
    with pytest.raises(ParseError) as err:
        read(doc)
    assert str(err.value) == (
        f"r.xml: record 1 line 4 at offset 0x{offset:X}: report 1: no report, only a "
        "message of RMF or its Distributed Data Server: GPM0739E Invalid DDS request "
        "parameter 'DATE' (severity 3)")
    tables, tally = read(doc, on_error="skip")
    assert (tally.read, tally.skipped, tables["cpu"].height) == (1, 1, 0)


def test_a_message_in_a_report_is_a_warning_with_its_id() -> None:
    tables, tally = read(_cpu_doc('<message id="ERB001I"><description>data may be '
                                  'incomplete</description><severity>0</severity></message>'))
    assert tables["cpu"].height == 1
    assert tally.warnings == ["RMF message in the CPU reports: ERB001I data may be incomplete "
                              "(severity 0) (1 report)"]


def test_bad_value_is_a_problem_named_by_report() -> None:
    doc = _cpu_doc().replace(b"<col>61.37</col>", b"<col>6x.37</col>", 1)
    with pytest.raises(ParseError, match=r"report 1 \(CPU report of SYSA .*\): .*6x\.37"):
        read(doc)
    tables, tally = read(doc, on_error="skip")
    assert (tally.skipped, tables["cpu"].height) == (1, 0)


@pytest.mark.parametrize("text", ["1e400", "1e400K", "inf", "NaN"])
def test_a_number_no_report_prints_is_a_bad_value(text: str) -> None:
    """Found by fuzzing: a cast reads these (as infinity or NaN), and an infinite
    count of transactions broke the table's integer column."""
    doc = _cpu_doc().replace(b"<col>61.37</col>", f"<col>{text}</col>".encode(), 1)
    with pytest.raises(ParseError, match=f"report 1 .*{text}"):
        read(doc)
    tables, tally = read(doc, on_error="skip")
    assert (tally.skipped, tables["cpu"].height) == (1, 0)
    wlmgl = (XML / "wlmgl-built-from-docs.xml").read_bytes()
    assert b"<value>12346K</value>" in wlmgl
    with pytest.raises(ParseError, match=f"{text}"):
        read(wlmgl.replace(b"<value>12346K</value>", f"<value>{text}</value>".encode(), 1))


# ------------------------------------------------------------ damage and safety

def test_malformed_xml_names_line_and_offset(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Any) -> None:
    cut = SMALL[:20_000]
    with pytest.raises(ParseError) as error:
        read(cut)
    assert error.value.line is not None and error.value.offset is not None
    path = tmp_path / "cut.xml"
    path.write_bytes(cut)
    code, out, err = run_cli(capsys, "parse", str(path))
    assert code == 2 and out == ""
    assert re.fullmatch(r"zperf: .*cut\.xml: line \d+ at offset 0x[0-9A-F]+: malformed XML: "
                        r".*\n", err)


def test_damaged_report_skipped_the_others_read() -> None:
    two = write_cpu_xml([CPU_ROW, {**CPU_ROW, "interval_start": dt.datetime(2024, 3, 1, 9, 30)}])
    broken = two.replace("<var-list>", "<var-list><oops>", 1).encode()
    tables, tally = read(broken, on_error="skip")
    assert (tally.read, tally.parsed, tally.skipped) == (2, 1, 1)
    problem = tally.problems[0]
    assert problem.line == 3 and "malformed XML: mismatched tag" in problem.reason
    assert tables["cpu"]["interval_start"].to_list() == [dt.datetime(2024, 3, 1, 9, 30)]


BOMB = (b'<?xml version="1.0"?>\n<!DOCTYPE ddsml [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(b'<!ENTITY %c "&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;&%c;">'
                   % (n, n - 1, n - 1, n - 1, n - 1, n - 1, n - 1, n - 1, n - 1, n - 1, n - 1)
                   for n in b"bcdefghi") + b"]>\n<ddsml>&i;</ddsml>")
XXE = b'<?xml version="1.0"?><!DOCTYPE ddsml [<!ENTITY x SYSTEM "file:///etc/passwd">]>' \
      b"<ddsml><postprocessor>&x;</postprocessor></ddsml>"


@pytest.mark.parametrize("data", [BOMB, XXE], ids=["billion-laughs", "external-entity"])
def test_entities_refused(data: bytes, capsys: pytest.CaptureFixture[str],
                          tmp_path: Any) -> None:
    for on_error in ("raise", "skip"):
        with pytest.raises(InputError, match="entit"):
            read_rmf_xml(data, "evil.xml", on_error)  # type: ignore[arg-type]
    path = tmp_path / "evil.xml"
    path.write_bytes(data)
    code, out, err = run_cli(capsys, "parse", "--from", "rmf-xml", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "refused" in err


WLMGL_DOC = (XML / "wlmgl-built-from-docs.xml").read_bytes()
#: Bytes that make XML go wrong in interesting ways.
_XML_BITS = st.sampled_from([b"<", b">", b"&", b"</col>", b"<col>", b"<row>", b"]]>",
                             b"<!ENTITY x 'y'>", b"&x;", b"\xff", b"*****", b"N/A", b"1K",
                             b"</postprocessor>", b"<postprocessor>", b"-"])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(document=st.sampled_from([SMALL, WLMGL_DOC]),
       edits=st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                                st.one_of(st.binary(max_size=8), _XML_BITS),
                                st.integers(0, 8)), min_size=1, max_size=6),
       on_error=st.sampled_from(["raise", "skip"]))
def test_random_damage_never_a_traceback(document: bytes,
                                         edits: list[tuple[float, bytes, int]],
                                         on_error: str) -> None:
    data = document
    for where, insert, remove in edits:
        at = int(where * len(data))
        data = data[:at] + insert + data[at + remove:]
    try:
        tables, tally = read_rmf_xml(data, "d.xml", on_error)  # type: ignore[arg-type]
    except ZperfError as error:
        assert "\n" not in str(error)
        return
    assert tally.balanced()
    assert tables["cpu"].height <= 1 and tables["workload"].height <= 4
    assert tally.parsed + tally.skipped + tally.other == tally.read


# ------------------------------------------------------------ encodings, odd documents

@pytest.mark.parametrize(("declared", "codec"), [("IBM-1047", "cp1047"), ("IBM-037", "cp037"),
                                                  ("UTF-8", "cp037")])
def test_ebcdic_document_as_z_os_writes_it(tmp_path: Any, declared: str, codec: str) -> None:
    """XPRPTS on z/OS is EBCDIC and declares its code page; formats.read turns it into
    UTF-8, after which the declaration no longer holds."""
    path = tmp_path / "xprpts.xml"
    path.write_bytes(SMALL.decode().replace("UTF-8", declared).encode(codec))
    result = read_files([str(path)], encoding=codec)
    assert result.tables["cpu"]["cpc_sequence_code"].to_list() == ["000000000005ED28"]
    assert result.tables["cpu_lpar"].height == 14


def test_latin1_document_keeps_its_declaration() -> None:
    doc = _cpu_doc().decode().replace('<?xml version="1.0" encoding="UTF-8"?>',
                                      '<?xml version="1.0" encoding="ISO-8859-1"?>')
    doc = doc.replace("<name>CPU</name>", "<name>CPU</name><!-- d\u00e9j\u00e0 -->", 1)
    tables, _ = read(doc.encode("latin-1"))
    assert tables["cpu"]["machine_type"].to_list() == ["3931"]


def test_unknown_encoding_is_one_line() -> None:
    with pytest.raises(ParseError, match=r"line 1 at offset 0x1E: the document declares the "
                                         r"encoding 'x-nope'"):
        read(b'<?xml version="1.0" encoding="x-nope"?><ddsml/>')


def test_other_report_without_a_header_is_counted_and_empty_documents_sniffed() -> None:
    tables, tally = read(b"<ddsml><postprocessor><metric id='CHAN'/></postprocessor></ddsml>")
    assert (tally.read, tally.other, tally.skipped, tables["cpu"].height) == (1, 1, 0, 0)
    assert sniff(b'<?xml version="1.0"?><ddsml/>') == "rmf-xml"
    _, tally = read(b"<ddsml/>")
    assert tally.read == 0 and "no postprocessor element" in tally.warnings[0]


def test_wlmgl_unknown_var_column_and_segment_are_warnings() -> None:
    doc = WLMGL_DOC.replace(b"<name>Workload</name>", b"<name>Tenant</name><value>T1</value>"
                            b"</var><var><name>Workload</name>", 1)
    doc = doc.replace(b"Number of Transactions: IN BUCKET</col>",
                      b"Number of Transactions: IN BUCKET</col><col type=\"N\">Median</col>", 1)
    doc = doc.replace(b"<segment>", b"<segment><name>Resource Groups</name></segment><segment>",
                      1)
    tables, tally = read(doc)
    assert tally.parsed == 2 and tables["workload"].height == 4
    assert sorted(tally.warnings) == [
        "column 'Median' in the response time distribution: not known to zperf, not read "
        "(1 report)",
        "segment 'Resource Groups' of the WLMGL report: not known to zperf, not read "
        "(1 report)",
        "var 'Tenant' in 'Service Class Periods': not known to zperf, not read (1 report)"]


def test_impossible_date_is_a_problem_not_a_traceback() -> None:
    """A display-start of the right shape but no real date (month 13)."""
    doc = SMALL.replace(b">04/12/2022-00.00.00<", b">13/12/2022-00.00.00<", 1)
    assert doc != SMALL
    tables, tally = read(doc, on_error="skip")
    assert (tally.read, tally.skipped, tables["cpu"].height) == (1, 1, 0)
    assert "13/12/2022-00.00.00 is not a date and time" in tally.problems[0].reason
