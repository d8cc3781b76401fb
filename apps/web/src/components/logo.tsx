import { Center, Image } from '@chakra-ui/react';
import { useState } from 'react';

/**
 * A service or tool logo at a fixed size, so nothing moves when it loads. When there is no logo, or
 * it cannot load (the CSP allows images from our own origin only), the name's first letter stands in.
 */
export function Logo({
  src,
  name,
  size = '10',
}: {
  src: string | null | undefined;
  name: string;
  size?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <Center
        boxSize={size}
        flexShrink={0}
        rounded="md"
        bg="brand.muted"
        color="brand.fg"
        fontWeight="bold"
        aria-hidden="true"
      >
        {name.trim().charAt(0).toUpperCase() || '?'}
      </Center>
    );
  }
  return (
    <Image
      src={src}
      alt=""
      boxSize={size}
      flexShrink={0}
      objectFit="contain"
      rounded="md"
      onError={() => setFailed(true)}
    />
  );
}
