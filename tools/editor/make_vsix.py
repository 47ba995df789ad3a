#!/usr/bin/env python3
"""Packs tools/editor into a VS Code extension (.vsix) without npm or vsce.

    python3 tools/editor/make_vsix.py [-o tile-language-0.1.0.vsix]
    code --install-extension tile-language-0.1.0.vsix

The layout is the one `vsce package` writes: [Content_Types].xml, extension.vsixmanifest
(identity, engine and category from package.json) and the extension's files under
extension/.
"""

import argparse
import json
import os
import sys
import zipfile
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["package.json", "language-configuration.json", "tile.tmLanguage.json"]

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension=".json" ContentType="application/json"/>'
    '<Default Extension=".md" ContentType="text/markdown"/>'
    '<Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>\n')


def manifest(pkg):
    langs = pkg["contributes"]["languages"]
    tags = []
    for lang in langs:
        tags += [lang["id"]] + lang.get("aliases", []) + ["__ext_" + e.lstrip(".")
                                                          for e in lang.get("extensions", [])]
    tags = list(dict.fromkeys(tags + ["__web_extension"]))
    return """<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">
  <Metadata>
    <Identity Language="en-US" Id=%(name)s Version=%(version)s Publisher=%(publisher)s />
    <DisplayName>%(display)s</DisplayName>
    <Description xml:space="preserve">%(description)s</Description>
    <Tags>%(tags)s</Tags>
    <Categories>%(categories)s</Categories>
    <GalleryFlags>Public</GalleryFlags>
    <Properties>
      <Property Id="Microsoft.VisualStudio.Code.Engine" Value=%(engine)s />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionDependencies" Value="" />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionPack" Value="" />
      <Property Id="Microsoft.VisualStudio.Code.ExtensionKind" Value="ui,workspace,web" />
      <Property Id="Microsoft.VisualStudio.Code.LocalizedLanguages" Value="" />
      <Property Id="Microsoft.VisualStudio.Code.EnabledApiProposals" Value="" />
      <Property Id="Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown" Value="true" />
      <Property Id="Microsoft.VisualStudio.Services.Content.Pricing" Value="Free"/>
    </Properties>
  </Metadata>
  <Installation>
    <InstallationTarget Id="Microsoft.VisualStudio.Code"/>
  </Installation>
  <Dependencies/>
  <Assets>
    <Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" />
    <Asset Type="Microsoft.VisualStudio.Services.Content.Details" Path="extension/readme.md" Addressable="true" />
  </Assets>
</PackageManifest>
""" % {
        "name": quoteattr(pkg["name"]),
        "version": quoteattr(pkg["version"]),
        "publisher": quoteattr(pkg["publisher"]),
        "display": escape(pkg.get("displayName", pkg["name"])),
        "description": escape(pkg.get("description", "")),
        "tags": escape(",".join(tags)),
        "categories": escape(",".join(pkg.get("categories", []))),
        "engine": quoteattr(pkg["engines"]["vscode"]),
    }


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help="default: NAME-VERSION.vsix in the current folder")
    args = ap.parse_args(argv)
    with open(os.path.join(HERE, "package.json")) as f:
        pkg = json.load(f)
    out = args.output or "%s-%s.vsix" % (pkg["name"], pkg["version"])
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("extension.vsixmanifest", manifest(pkg))
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        for name in FILES:
            z.write(os.path.join(HERE, name), "extension/" + name)
        z.write(os.path.join(HERE, "README.md"), "extension/readme.md")
    print("wrote %s (install it with: code --install-extension %s)" % (out, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
