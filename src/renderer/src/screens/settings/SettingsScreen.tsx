import { Gs1PrefixForm } from './Gs1PrefixForm';
import { LabelPrinterForm } from './LabelPrinterForm';
import { SyncSettingsSection } from './SyncSettingsSection';

/**
 * Settings of this workstation (the label printer, sync with a central service) and of brands
 * (the GS1 company prefix).
 */
export function SettingsScreen() {
  return (
    <section className="settings" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Settings
      </h1>
      <LabelPrinterForm />
      <Gs1PrefixForm />
      <SyncSettingsSection />
    </section>
  );
}
