from contract.vocabulary import HarnessError
from tools.knowledge.chunks import split_sections

SUPPORTED_SUFFIXES = (".md",)


class UnreadableDocument(HarnessError):
    code = "KNOWLEDGE_DOCUMENT_UNREADABLE"


def parse_document(relative, data):
    try:
        return split_sections(relative, data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UnreadableDocument("not UTF-8 text") from None
