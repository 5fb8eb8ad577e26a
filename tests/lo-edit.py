"""Open a CSV view in a running LibreOffice (python3-uno), set one cell, save it as CSV.

usage: lo-edit.py PIPE-NAME FILE ROW COL VALUE   (row and col count from 0)
Exits 0 when store() succeeded, 1 with the error otherwise.
"""
import sys
import time
import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main(argv):
    pipe, path, row, col, value = argv[1], argv[2], int(argv[3]), int(argv[4]), argv[5]
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    for _ in range(300):
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            break
        except Exception:
            time.sleep(0.1)
    else:
        print("cannot connect to soffice")
        return 1
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    csv = "44,34,76,1"
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0,
                                       (prop("Hidden", True), prop("FilterName", "Text - txt - csv (StarCalc)"),
                                        prop("FilterOptions", csv)))
    try:
        sheet = doc.Sheets.getByIndex(0)
        sheet.getCellByPosition(col, row).setValue(float(value))
        # Save, keeping the CSV format, without quoting text cells (the header)
        doc.storeToURL(doc.getURL(), (prop("FilterName", "Text - txt - csv (StarCalc)"),
                                      prop("FilterOptions", "44,34,76,1,,1033,false,true"),
                                      prop("Overwrite", True)))
    except Exception as e:
        print("store failed: %s" % e)
        return 1
    finally:
        doc.close(True)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
