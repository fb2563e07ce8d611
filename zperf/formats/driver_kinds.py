"""The workload-driver input kinds, in sniffing order (specific before general)."""

from __future__ import annotations

from zperf.formats.driver_csv import DRIVER_CSV
from zperf.formats.driver_iwl import DRIVER_IWL
from zperf.formats.driver_jmeter import JMETER_CSV
from zperf.formats.driver_jmeter_xml import JMETER_XML

#: IWL engine output, JMeter XML, JMeter CSV (before the generic request CSV).
DRIVER_KINDS = (DRIVER_IWL, JMETER_XML, JMETER_CSV, DRIVER_CSV)
