import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
import { fetchGs1Prefix, saveGs1Prefix } from '../../api/fulfilment';
import { useAnnounce } from '../../status/StatusContext';
import { fieldMessage } from '../../format/fieldMessage';
import { useAllBrands } from '../../api/lookupQueries';

const formSchema = gs1PrefixBodySchema.extend({
  brand_id: z.string().min(1, { message: 'Choose a brand.' }),
});
type PrefixForm = z.infer<typeof formSchema>;

const prefixKey = (brandId: string) => ['gs1-prefix', brandId] as const;

/** The question asked before a brand's prefix changes: every new SSCC changes with it. */
export function prefixChangeQuestion(brand: string, current: string, next: string): string {
  return (
    `New SSCCs will use ${next} instead of ${current} for ${brand}. ` +
    `Labels already printed keep ${current}. Change the prefix?`
  );
}

/** The brand's current prefix, once a brand is chosen. */
function useCurrentPrefix(brandId: string) {
  const api = useApi();
  return useQuery({
    queryKey: prefixKey(brandId),
    queryFn: ({ signal }) => fetchGs1Prefix(api, brandId, signal),
    enabled: brandId !== '',
  });
}

/** A brand's GS1 company prefix, which every SSCC of its cartons and pallets starts with. */
export function Gs1PrefixForm() {
  const api = useApi();
  const announce = useAnnounce();
  const brands = loadStateOf(useAllBrands());
  const brandList = brands.status === 'ready' ? brands.data : [];
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<PrefixForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { brand_id: '', gs1_company_prefix: '' },
  });
  const brandId = watch('brand_id');
  const current = useCurrentPrefix(brandId);
  const currentPrefix = current.data ?? null;
  // The field shows the brand's prefix as it is now, so nobody takes "empty" for "none set".
  useEffect(() => {
    if (current.isSuccess) setValue('gs1_company_prefix', current.data ?? '');
  }, [current.isSuccess, current.data, setValue]);

  const onSubmit = handleSubmit(async ({ brand_id, gs1_company_prefix }) => {
    setFormError(null);
    setSaved(null);
    const name = brandList.find((brand) => brand.brand_id === brand_id)?.name ?? 'the brand';
    if (
      currentPrefix &&
      currentPrefix !== gs1_company_prefix &&
      !window.confirm(prefixChangeQuestion(name, currentPrefix, gs1_company_prefix))
    ) {
      return;
    }
    try {
      await saveGs1Prefix(api, brand_id, gs1_company_prefix);
      await queryClient.invalidateQueries({ queryKey: prefixKey(brand_id) });
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
          maxLength={10}
          disabled={brandId === '' || current.isPending}
          aria-describedby={[
            prefixError ? 'settings-gs1-prefix-error' : null,
            'settings-gs1-prefix-current',
          ]
            .filter(Boolean)
            .join(' ')}
          {...register('gs1_company_prefix')}
        />
        <p id="settings-gs1-prefix-current" className="hint">
          {brandId === ''
            ? 'Choose a brand to see its prefix.'
            : current.isPending
              ? 'Loading the current prefix…'
              : current.isError
                ? `Could not load the current prefix: ${describeError(current.error)}`
                : currentPrefix
                  ? `Current prefix: ${currentPrefix}.`
                  : 'No prefix is set yet: cartons and pallets of this brand get no SSCC until one is.'}
        </p>
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Save prefix'}
        </button>
        <SavedStatus message={saved} />
      </form>
    </section>
  );
}
