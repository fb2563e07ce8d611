"""Message sizes: a SOAP message that CICS generates for a commarea (paper 001), and a
JSON response compared to a baseline's (paper 000).

Paper 001 ("Sizing SOAP message") sizes the message the CICS Web Services
Assistant builds from a language structure as three parts: the SOAP prefix
and suffix (XML declaration, envelope with its namespace URIs, body tags),
the operation element (the program name followed by "Operation", opened and
closed) and one element per data field (its name twice, its data, and the
five bytes of ``<``, ``>``, ``</`` and ``>``).
"""

from __future__ import annotations

from zperf.calc.quantity import Quantity, non_negative, positive

#: 001: "SOAP Prefix and Suffix - 278 bytes" (namespace URIs included; they may vary).
SOAP_PREFIX_SUFFIX_BYTES = 278


def soap_operation_bytes(program_name_length: Quantity) -> Quantity:
    """The operation element: (program name length x 2) + 23 bytes (001).

    ``<PGRMNAMEOperation>`` and ``</PGRMNAMEOperation>``: the name and the 9
    bytes of "Operation" twice, plus ``<``, ``>``, ``</`` and ``>``.
    """
    return positive("program name length", program_name_length) * 2 + 23


def soap_element_bytes(avg_element_name_length: Quantity,
                       avg_element_data_length: Quantity) -> Quantity:
    """One data element: (average name length x 2) + average data length + 5 bytes (001).

    ``<name>data</name>``: the name twice, the data, ``<``, ``>``, ``</`` and ``>``.
    """
    return (positive("average element name length", avg_element_name_length) * 2
            + non_negative("average element data length", avg_element_data_length) + 5)


def soap_size_bytes(elements: Quantity, avg_element_name_length: Quantity,
                    avg_element_data_length: Quantity,
                    program_name_length: Quantity = 8) -> Quantity:
    """SOAP message size: 278 + operation + elements x element bytes (paper 001).

    001's first sizing table (8-byte program name, 8-byte element names): 128
    elements of 32 bytes -> 7,101 bytes; its second: 4096 elements with 30-byte
    names and 1 byte of data -> 270,653 bytes.
    """
    return (SOAP_PREFIX_SUFFIX_BYTES + soap_operation_bytes(program_name_length)
            + non_negative("elements", elements)
            * soap_element_bytes(avg_element_name_length, avg_element_data_length))


def size_vs_baseline_pct(size_bytes: Quantity, baseline_bytes: Quantity) -> Quantity:
    """A payload's size as a percentage of the baseline's: size / baseline x 100 (000 Table 1).

    000 Table 1, "JSON payload size compared to Baseline": excluding the dealer
    array, 59634 / 63949 bytes = 93.25 %, printed 93%.
    """
    return non_negative("size", size_bytes) / positive("baseline size", baseline_bytes) * 100.0
