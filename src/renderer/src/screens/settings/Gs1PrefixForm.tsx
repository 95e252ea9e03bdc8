import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { gs1PrefixBodySchema } from '../../../../shared/fulfilment';
import { describeError, isApiError } from '../../api/ApiError';
import { useApi } from '../../api/ApiContext';
import { loadStateOf } from '../../api/queries';
import {
  FormError,
  FormField,
  SavedStatus,
  invalidProps,
  InputField,
} from '../../components/FormMessages';
import { saveGs1Prefix } from '../../api/fulfilment';
import { useAnnounce } from '../../status/StatusContext';
import { fieldMessage } from '../orders/orderFormat';
import { useAllBrands } from '../transactions/transactionQueries';

const formSchema = gs1PrefixBodySchema.extend({
  brand_id: z.string().min(1, { message: 'Choose a brand.' }),
});
type PrefixForm = z.infer<typeof formSchema>;

/** A brand's GS1 company prefix, which every SSCC of its cartons and pallets starts with. */
export function Gs1PrefixForm() {
  const api = useApi();
  const announce = useAnnounce();
  const brands = loadStateOf(useAllBrands());
  const brandList = brands.status === 'ready' ? brands.data : [];
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<PrefixForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { brand_id: '', gs1_company_prefix: '' },
  });

  const onSubmit = handleSubmit(async ({ brand_id, gs1_company_prefix }) => {
    setFormError(null);
    setSaved(null);
    const name = brandList.find((brand) => brand.brand_id === brand_id)?.name ?? 'the brand';
    try {
      await saveGs1Prefix(api, brand_id, gs1_company_prefix);
      const text = `GS1 company prefix of ${name} saved: ${gs1_company_prefix}.`;
      setSaved(text);
      announce(text);
    } catch (error) {
      setFormError(
        isApiError(error) && error.status === 403
          ? `Not saved: you have no admin grant for ${name}. Ask an admin of the brand.`
          : `Not saved: ${describeError(error)}`,
      );
    }
  });

  const brandError = errors.brand_id?.message;
  const prefixError = errors.gs1_company_prefix?.message;
  return (
    <section className="panel" aria-labelledby="settings-gs1-heading">
      <h2 id="settings-gs1-heading">GS1 company prefix</h2>
      <p className="hint">
        The brand’s GS1 company prefix (7 to 10 digits) starts the SSCC of every new carton and
        pallet. Cartons already packed keep theirs. Needs an admin grant for the brand.
      </p>
      {brands.status === 'error' ? (
        <p role="alert">Could not load your brands: {brands.message}</p>
      ) : null}
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="settings-form">
        <FormError message={formError} />
        <FormField id="settings-gs1-brand" label="Brand" error={brandError}>
          <select
            id="settings-gs1-brand"
            {...invalidProps('settings-gs1-brand', brandError)}
            {...register('brand_id')}
          >
            <option value="">
              {brands.status === 'loading' ? 'Loading brands…' : 'Choose a brand'}
            </option>
            {brandList.map((brand) => (
              <option key={brand.brand_id} value={brand.brand_id}>
                {brand.name}
              </option>
            ))}
          </select>
        </FormField>
        <InputField
          id="settings-gs1-prefix"
          label="GS1 company prefix"
          error={prefixError && fieldMessage(prefixError)}
          inputMode="numeric"
          autoComplete="off"
          {...register('gs1_company_prefix')}
        />
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save prefix'}
        </button>
        <SavedStatus message={saved} />
      </form>
    </section>
  );
}
