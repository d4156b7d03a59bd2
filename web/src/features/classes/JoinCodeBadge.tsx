// The class join code; a click copies it and toasts 'Copied! Join code copied to clipboard'.
import Badge from 'react-bootstrap/Badge';
import { useToast } from '../../components/toast/useToast';

export function JoinCodeBadge({ code }: { code: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast({ title: 'Copied!', description: 'Join code copied to clipboard' });
    } catch {
      toast({ title: 'Error', description: `Could not copy. The join code is ${code}.`, variant: 'destructive' });
    }
  };
  return (
    <Badge
      as="button"
      type="button"
      bg="dark"
      className="border-0 fs-6 font-monospace px-3 py-2"
      title="Click to copy"
      aria-label={`Join code ${code}, click to copy`}
      onClick={() => void copy()}
    >
      {code}
    </Badge>
  );
}
