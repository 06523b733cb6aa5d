; Inno Setup script: the Windows installer over PyInstaller's one-folder build.
;
;   python scripts\bundle.py                 (builds dist\citeview\ with packaging\citeview.spec)
;   iscc packaging\windows\citeview.iss      (writes dist\citeview-0.1.0-setup.exe)
;
; It registers .cite files under the ProgID citeview.citations (name, icon, "open" with the
; file as "%1"), so a double-click opens them in citeview, and adds citeview to "Open with"
; for .pdf through OpenWithProgids, leaving the PDF default alone. Keys go under HKA: the
; machine's classes for an all-users install, the user's for a per-user one.

#define AppName "citeview"
#define AppVersion "0.1.0"
#define AppExe "citeview.exe"
#define CiteProgId "citeview.citations"
#define PdfProgId "citeview.pdf"

[Setup]
AppId={{6F3D2B1C-8E4A-4C57-9B0E-2A7D5C1E9F40}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=citeview
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
UninstallDisplayIcon={app}\{#AppExe}
SourceDir=..\..
OutputDir=dist
OutputBaseFilename={#AppName}-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Files]
Source: "dist\citeview\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{group}\{#AppName} demo"; Filename: "{app}\{#AppExe}"; Parameters: "--demo"

[Registry]
; .cite: citeview's own type, opened by citeview
Root: HKA; Subkey: "Software\Classes\.cite"; ValueType: string; ValueName: ""; ValueData: "{#CiteProgId}"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.cite"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-citeview-citations"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.cite\OpenWithProgids"; ValueType: string; ValueName: "{#CiteProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#CiteProgId}"; ValueType: string; ValueName: ""; ValueData: "citeview citations file"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#CiteProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"
Root: HKA; Subkey: "Software\Classes\{#CiteProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
; .pdf: offered under Open with; the PDF default stays what it was
Root: HKA; Subkey: "Software\Classes\{#PdfProgId}"; ValueType: string; ValueName: ""; ValueData: "PDF document (citeview)"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#PdfProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"
Root: HKA; Subkey: "Software\Classes\{#PdfProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
Root: HKA; Subkey: "Software\Classes\.pdf\OpenWithProgids"; ValueType: string; ValueName: "{#PdfProgId}"; ValueData: ""; Flags: uninsdeletevalue
; the application itself, named and with the types it opens, for the Open with list
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "{#AppName}"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".cite"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".pdf"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""

[Run]
Filename: "{app}\{#AppExe}"; Parameters: "--demo"; Description: "Open the demo application"; Flags: nowait postinstall skipifsilent
